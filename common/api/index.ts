export * from './protocol';
export * from './contract';
export * from './studio';
export * from './client';
