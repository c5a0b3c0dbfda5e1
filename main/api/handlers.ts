/**
 * The StudioApi, implemented once as plain async functions. Electron IPC (main/app) and the
 * web host (main/host) serve this same object; neither adds behaviour of its own.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Handlers } from '../../common/api/contract';
import { ApiError } from '../../common/api/protocol';
import type { StudioContract } from '../../common/api/studio';
import { readPack, readScenarioFolder, writePack } from '../packs';

export interface StudioHandlerOptions {
  /** Folder holding one unpacked pack per built-in template (templates/<id>/). */
  templatesDir: string;
  transport: 'electron' | 'web';
  version: string;
}

/** Builds the handler table for one process. */
export function createStudioHandlers(opts: StudioHandlerOptions): Handlers<StudioContract> {
  async function templateIds(): Promise<string[]> {
    const entries = await readdir(opts.templatesDir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  }
  async function loadTemplate(id: string) {
    if (!(await templateIds()).includes(id)) {
      throw new ApiError({ code: 'not-found', message: `no built-in template "${id}"` });
    }
    return (await readScenarioFolder(join(opts.templatesDir, id))).scenario;
  }

  return {
    'app.info': async () => ({
      version: opts.version,
      transport: opts.transport,
      platform: process.platform,
    }),
    'templates.list': async () => {
      const out = [];
      for (const id of await templateIds()) {
        const s = await loadTemplate(id);
        out.push({
          id,
          name: s.name,
          description: s.description,
          personas: s.personas.length,
          width: s.map.width,
          height: s.map.height,
        });
      }
      return out;
    },
    'templates.get': async ({ id }) => loadTemplate(id),
    'packs.export': async ({ scenario }) => {
      const bytes = await writePack(scenario);
      return { fileName: `${scenario.id}.simpack`, data: bytes.toString('base64') };
    },
    'packs.import': async ({ fileName, data }) => {
      const { scenario, warnings } = await readPack(Buffer.from(data, 'base64'), fileName);
      return { scenario, warnings };
    },
  };
}
