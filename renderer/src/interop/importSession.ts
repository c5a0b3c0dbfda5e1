/**
 * One import dialog's state: what was picked, what the Node side read from it (layers, a
 * suggested mapping, preview counts, warnings), the designer's mapping, and the import
 * itself. A vanilla zustand store so its sequencing is testable without React: answers to
 * an older request (the designer changed the mapping again meanwhile) are dropped.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  selectReverieFiles,
  type ImportFile,
  type ImportPreview,
  type LayerMappingInput,
  type ReverieSelection,
} from '../../../common/api/interop';
import type { StudioApi } from '../../../common/api/studio';
import type { ImportedScenario } from '../stores/types';
import { assignRole, mappingFromRoles, rolesFromMapping, type LayerRole } from './layerRoles';
import { partitionTiledFiles, toImportFiles, type PickedFile } from './pickedFiles';

export type ImportKind = 'tiled' | 'reverie';
export type InteropApi = StudioApi['interop'];
type Inspected = Awaited<ReturnType<InteropApi['inspectTiled']>>;
type Issue = Inspected['warnings'][number];

/** A failure as the dialog shows it: what went wrong, and the file/field when known. */
export interface ImportProblem {
  message: string;
  file?: string;
  issues?: Issue[];
}

export interface ImportSessionState {
  kind: ImportKind;
  /** empty: nothing picked; reading/importing: a request is out; ready: can import. */
  phase: 'empty' | 'reading' | 'ready' | 'importing' | 'failed';
  /** What is happening, for the progress line ("Reading town.tmj…"). */
  status: string | null;
  /** Picked files that will not be sent (tileset images, unrelated files). */
  skipped: string[];
  /** How many files were picked in all. */
  pickedCount: number;
  problem: ImportProblem | null;
  preview: ImportPreview | null;
  warnings: Issue[];
  /** Tiled: what inspectTiled answered, and the designer's role per layer. */
  tiled: Inspected | null;
  roles: Record<string, LayerRole>;
  /** Tiled: the layer that lost its sector/arena role to the last choice, to say so. */
  displaced: string | null;
  /** Reverie: the files chosen from the picked folder. */
  reverie: Omit<ReverieSelection, 'files'> | null;

  pick(files: readonly PickedFile[]): Promise<void>;
  /** Tiled: read another map among the picked files. */
  chooseMap(name: string): Promise<void>;
  /** Tiled: give a layer another role and refresh the preview. */
  setRole(layer: string, role: LayerRole): Promise<void>;
  /** Tiled: back to the mapping suggested from the layer names. */
  resetRoles(): Promise<void>;
  /** Reverie: import another base simulation from the same folder. */
  chooseBase(base: string): Promise<void>;
  /** Builds the scenario (Tiled: with the chosen mapping); null when it failed (see problem). */
  confirm(): Promise<(ImportedScenario & { source: string }) | null>;
}

export type ImportSession = StoreApi<ImportSessionState>;

/** Turns a thrown ApiError (or anything) into a problem the dialog can show. */
export function toProblem(err: unknown): ImportProblem {
  const e = (typeof err === 'object' && err !== null ? err : {}) as Record<string, unknown>;
  return {
    message: typeof e.message === 'string' && e.message ? e.message : String(err),
    file: typeof e.file === 'string' ? e.file : undefined,
    issues: Array.isArray(e.issues) ? (e.issues as Issue[]) : undefined,
  };
}

export function createImportSession(kind: ImportKind, api: InteropApi): ImportSession {
  let picked: PickedFile[] = [];
  let sent: ImportFile[] = [];
  // Reverie: the scenario the preview built, kept so "Import" does not build it twice.
  let built: (ImportedScenario & { source: string }) | null = null;
  let seq = 0;

  return createStore<ImportSessionState>()((set, get) => {
    /** Runs one request; only the latest request's answer (or failure) lands. */
    async function request<T>(
      phase: 'reading' | 'importing',
      status: string,
      work: () => Promise<T>,
      land: (answer: T) => void,
    ): Promise<boolean> {
      const mine = ++seq;
      set({ phase, status, problem: null });
      try {
        const answer = await work();
        if (mine !== seq) return false;
        land(answer);
        set({ phase: 'ready', status: null });
        return true;
      } catch (err) {
        if (mine !== seq) return false;
        set({ phase: 'failed', status: null, problem: toProblem(err) });
        return false;
      }
    }

    async function inspect(map: string | undefined, mapping?: LayerMappingInput): Promise<void> {
      const label = map ?? 'the map';
      await request(
        'reading',
        mapping ? 'Updating the preview…' : `Reading ${label}…`,
        () => api.inspectTiled({ files: sent, map, mapping }),
        (answer) => {
          const current = get().tiled;
          // A new map starts from its suggested mapping; the same map keeps the designer's.
          const roles =
            mapping && current?.map === answer.map
              ? get().roles
              : rolesFromMapping(answer.layers, answer.mapping);
          set({ tiled: answer, roles, preview: answer.preview, warnings: answer.warnings });
        },
      );
    }

    async function buildReverie(base: string | undefined): Promise<void> {
      const selection = selectReverieFiles(
        picked.map((f) => f.name),
        base,
      );
      const { files, ...summary } = selection;
      built = null;
      set({ reverie: summary, preview: null, warnings: [] });
      if (selection.base === null) {
        set({
          phase: 'failed',
          problem: {
            message: `No base simulation in the chosen folder (${picked.length} files): expected storage/<base simulation>/reverie/meta.json. Choose the environment/frontend_server folder of a Generative Agents checkout, or a folder above it.`,
          },
        });
        return;
      }
      const byName = new Map(picked.map((f) => [f.name, f]));
      await request(
        'reading',
        `Reading ${files.length} files of ${selection.base}…`,
        async () => {
          sent = await toImportFiles(
            files.map((f) => ({ name: f.name, blob: byName.get(f.path)!.blob })),
          );
          return api.importReverie({ files: sent, base: selection.base ?? undefined });
        },
        (answer) => {
          built = { ...answer, source: selection.base ?? 'reverie town' };
          set({ preview: answer.preview, warnings: answer.warnings });
        },
      );
    }

    return {
      kind,
      phase: 'empty',
      status: null,
      skipped: [],
      pickedCount: 0,
      problem: null,
      preview: null,
      warnings: [],
      tiled: null,
      roles: {},
      displaced: null,
      reverie: null,

      async pick(files) {
        picked = [...files];
        built = null;
        set({
          pickedCount: files.length,
          tiled: null,
          roles: {},
          displaced: null,
          reverie: null,
          preview: null,
          warnings: [],
          skipped: [],
          problem: null,
        });
        if (files.length === 0) {
          set({ phase: 'empty' });
          return;
        }
        if (kind === 'reverie') return buildReverie(undefined);
        const { send, skipped } = partitionTiledFiles(files);
        set({ skipped });
        if (send.length === 0) {
          set({
            phase: 'failed',
            problem: {
              message: `None of the ${files.length} chosen files is a Tiled map or tileset (expected .tmj, .tmx or .json maps and .tsj or .tsx tilesets).`,
            },
          });
          return;
        }
        const ok = await request(
          'reading',
          `Reading ${send.length} file${send.length === 1 ? '' : 's'}…`,
          async () => {
            sent = await toImportFiles(send);
          },
          () => {},
        );
        if (ok) await inspect(undefined);
      },

      async chooseMap(name) {
        set({ displaced: null });
        await inspect(name);
      },

      async setRole(layer, role) {
        const tiled = get().tiled;
        if (!tiled) return;
        const { roles, displaced } = assignRole(tiled.layers, get().roles, layer, role);
        set({ roles, displaced });
        await inspect(tiled.map, mappingFromRoles(tiled.layers, roles));
      },

      async resetRoles() {
        const tiled = get().tiled;
        if (!tiled) return;
        set({ roles: rolesFromMapping(tiled.layers, tiled.suggested), displaced: null });
        await inspect(tiled.map, tiled.suggested);
      },

      async chooseBase(base) {
        await buildReverie(base);
      },

      async confirm() {
        if (get().phase !== 'ready') return null;
        if (kind === 'reverie') return built;
        const tiled = get().tiled;
        if (!tiled) return null;
        let result: (ImportedScenario & { source: string }) | null = null;
        await request(
          'importing',
          `Importing ${tiled.map}…`,
          () =>
            api.importTiled({
              files: sent,
              map: tiled.map,
              mapping: mappingFromRoles(tiled.layers, get().roles),
            }),
          (answer) => {
            result = { scenario: answer.scenario, warnings: answer.warnings, source: tiled.map };
          },
        );
        return result;
      },
    };
  });
}
