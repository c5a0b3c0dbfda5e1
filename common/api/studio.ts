/**
 * The StudioApi: everything the renderer may ask of the Node side, as one table. Adding a
 * method means adding it here, implementing it in main/api/handlers.ts, and nothing else.
 */
import { z } from 'zod';
import { scenarioShape } from '../scenario/schema';
import { issueSchema } from './protocol';
import type { ClientOf, Contract } from './contract';

/** Packs travel as base64 so one JSON protocol serves every transport. */
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64 data');

/** 64 MiB of base64: the most a pack may weigh when it crosses a transport. */
export const MAX_PACK_BASE64 = 64 * 1024 * 1024;

export const templateSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  personas: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

export const studioMethods = {
  'app.info': {
    input: z.object({}),
    output: z.object({
      version: z.string(),
      transport: z.enum(['electron', 'web']),
      platform: z.string(),
    }),
  },
  'templates.list': {
    input: z.object({}),
    output: z.array(templateSummarySchema),
  },
  'templates.get': {
    input: z.object({ id: z.string().min(1).max(64) }),
    output: scenarioShape,
  },
  'packs.export': {
    input: z.object({ scenario: scenarioShape }),
    output: z.object({ fileName: z.string(), data: base64 }),
  },
  'packs.import': {
    input: z.object({ fileName: z.string().max(260), data: base64.max(MAX_PACK_BASE64) }),
    output: z.object({ scenario: scenarioShape, warnings: z.array(issueSchema) }),
  },
} as const;

export const studioEvents = {} as const;

export const studioContract = { methods: studioMethods, events: studioEvents } satisfies Contract;
export type StudioContract = typeof studioContract;
/** The typed client the renderer calls: `studio.packs.import({...})`. */
export type StudioApi = ClientOf<StudioContract>;
