/**
 * The desktop shell's side of the StudioApi (`shell.*`: requests from main to the page): packs
 * opened from the OS (double-click, argv, the File menu) and native menu commands. Only the
 * Electron host emits these; in web mode they never fire and the queue stays empty.
 */
import { z } from 'zod';

/** packs.import's ceiling (studio.ts MAX_PACK_BASE64; not imported: studio.ts imports this). */
const MAX_PACK_BASE64 = 64 * 1024 * 1024;

export const openPackRequestSchema = z.object({
  /** The file's name, as packs.import takes it. */
  fileName: z.string().max(260),
  /** Where it was opened from (for the window title and the recent list). */
  path: z.string().max(4096),
  /** The pack, base64, ready for packs.import. */
  data: z
    .string()
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64 data')
    .max(MAX_PACK_BASE64),
});
export type OpenPackRequest = z.infer<typeof openPackRequestSchema>;

/** Menu commands the page carries out (main cannot: they act on the page's state). */
export const shellCommands = [
  'new-blank',
  'new-from-template',
  'export',
  'undo',
  'redo',
  'settings',
] as const;
export type ShellCommand = (typeof shellCommands)[number];

export const desktopMethods = {
  /**
   * The packs the OS asked to open before the page listened (launch argv); calling it also
   * tells main the page is ready, so later requests arrive as `shell.onDidRequestOpenPack`.
   */
  'shell.takeOpenRequests': { input: z.object({}), output: z.array(openPackRequestSchema) },
} as const;

export const desktopEvents = {
  'shell.onDidRequestOpenPack': openPackRequestSchema,
  'shell.onDidRequestCommand': z.object({ command: z.enum(shellCommands) }),
} as const;
