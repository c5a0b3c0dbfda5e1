/**
 * Generic machinery for a typed service contract: a table of methods ("group.method") with
 * input/output schemas and a table of events ("group.onDidX") with payload schemas. The same
 * table types the server's handlers and the client's proxy.
 */
import type { z } from 'zod';

export interface MethodSpec {
  input: z.ZodType;
  output: z.ZodType;
}
export type MethodTable = Record<`${string}.${string}`, MethodSpec>;
export type EventTable = Record<`${string}.onDid${string}`, z.ZodType>;

export interface Contract<M extends MethodTable = MethodTable, E extends EventTable = EventTable> {
  methods: M;
  events: E;
}

type SpecOf<C extends Contract, K> = K extends keyof C['methods']
  ? C['methods'][K] extends MethodSpec
    ? C['methods'][K]
    : never
  : never;
type EventOf<C extends Contract, K> = K extends keyof C['events']
  ? C['events'][K] extends z.ZodType
    ? C['events'][K]
    : never
  : never;

export type InputOf<C extends Contract, K> = z.input<SpecOf<C, K>['input']>;
export type ParsedInputOf<C extends Contract, K> = z.output<SpecOf<C, K>['input']>;
export type OutputOf<C extends Contract, K> = z.output<SpecOf<C, K>['output']>;
export type RawOutputOf<C extends Contract, K> = z.input<SpecOf<C, K>['output']>;
export type PayloadOf<C extends Contract, K> = z.output<EventOf<C, K>>;

/** What the serving side implements: one async function per method. */
export type Handlers<C extends Contract> = {
  [K in keyof C['methods']]: (input: ParsedInputOf<C, K>) => Promise<RawOutputOf<C, K>>;
};

type GroupOf<K> = K extends `${infer G}.${string}` ? G : never;
type NameOf<K, G extends string> = K extends `${G}.${infer N}` ? N : never;

/**
 * The client's view: `client.packs.import(input)` for methods and
 * `client.packs.onDidProgress(listener)` (returning an unsubscribe function) for events.
 */
export type ClientOf<C extends Contract> = {
  [G in GroupOf<keyof C['methods'] | keyof C['events']>]: {
    [N in NameOf<keyof C['methods'], G>]: (
      input: InputOf<C, `${G}.${N}`>,
    ) => Promise<OutputOf<C, `${G}.${N}`>>;
  } & {
    [N in NameOf<keyof C['events'], G>]: (
      listener: (payload: PayloadOf<C, `${G}.${N}`>) => void,
    ) => () => void;
  };
};
