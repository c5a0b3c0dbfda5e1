/**
 * The wire protocol shared by every StudioApi transport (Electron IPC, WebSocket, and later
 * the simulation process's MessagePort). Messages are plain JSON; errors cross as data.
 */
import { z } from 'zod';

/** Error codes a caller can branch on. */
export const apiErrorCodes = [
  'invalid-input', // the request failed its schema: nothing was done
  'invalid-output', // the handler answered outside its schema: a bug on the serving side
  'unknown-method',
  'not-found',
  'rejected', // the request was well-formed but its content was refused (e.g. a hostile pack)
  'internal',
  'transport', // the connection failed or was refused
] as const;
export type ApiErrorCode = (typeof apiErrorCodes)[number];

export const issueSchema = z.object({
  /** The file inside a pack or folder the issue is about (e.g. `personas.json`). */
  file: z.string().optional(),
  path: z.string(),
  message: z.string(),
  severity: z.enum(['error', 'warning']).optional(),
});

export const apiErrorShape = z.object({
  code: z.enum(apiErrorCodes),
  name: z.string(),
  message: z.string(),
  /** The file a problem was found in, when there was one (e.g. `personas.json` in a pack). */
  file: z.string().optional(),
  issues: z.array(issueSchema).optional(),
});
export type ApiErrorShape = z.infer<typeof apiErrorShape>;

/** The answer to a call, as it crosses the boundary. */
export type CallResult = { ok: true; output: unknown } | { ok: false; error: ApiErrorShape };

export const clientMessageSchema = z.object({
  kind: z.literal('call'),
  id: z.number().int().nonnegative(),
  method: z.string().max(100),
  input: z.unknown(),
});
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export type ServerMessage =
  ({ kind: 'result'; id: number } & CallResult) | { kind: 'event'; name: string; payload: unknown };

/** An error raised by a handler or a client, carrying its wire shape. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly file?: string;
  readonly issues?: ApiErrorShape['issues'];
  constructor(shape: Omit<ApiErrorShape, 'name'> & { name?: string }) {
    super(shape.message);
    this.code = shape.code;
    this.file = shape.file;
    this.issues = shape.issues;
    if (shape.name) this.name = shape.name;
  }

  /** The shape sent over the wire. */
  toShape(): ApiErrorShape {
    return {
      code: this.code,
      name: this.name,
      message: this.message,
      file: this.file,
      issues: this.issues,
    };
  }
}
