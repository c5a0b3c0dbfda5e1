export * from './schema';
export * from './errors';
export * from './migrate';
export * from './validate';
export * from './address';
export * from './seed';
export * from './create';
