/**
 * The studio store's shape: one bound store made of three slices (library, document,
 * notices), each in its own file. Cross-slice calls go through `get()`.
 */
import type { StateCreator } from 'zustand/vanilla';
import type { Persona, Scenario } from '../../../common/scenario/schema';
import type { ValidationIssue } from '../../../common/scenario/errors';
import type { StudioApi, TemplateSummary } from '../../../common/api/studio';
import type { CorruptEntry, LibraryEntry, ScenarioRepository } from '../library/repository';
import type { Autosaver, SaveJournal, SaveState } from '../library/autosave';
import type { ScenarioRow } from '../library/db';
import type { DocHost } from '../editor/DocHost';
import type { HistoryMode } from '../editor/types';

/** What the store needs from the outside world; tests pass their own. */
export interface StudioDeps {
  repo: ScenarioRepository;
  /** The StudioApi groups the library uses. */
  api: Pick<StudioApi, 'app' | 'templates' | 'packs'>;
  journal?: SaveJournal;
  autosaveDelayMs?: number;
}

/** A scenario built from imported files, with what was approximated (as packs.import answers). */
export type ImportedScenario = Pick<
  Awaited<ReturnType<StudioApi['packs']['import']>>,
  'scenario' | 'warnings'
>;

/** What app.info answered. */
export type AppInfo = Awaited<ReturnType<StudioApi['app']['info']>>;

export interface LibrarySlice {
  /** Readable scenarios matching `query`, most recently opened first. */
  entries: LibraryEntry[];
  /** Rows that could not be read, matching `query`. */
  corrupt: CorruptEntry[];
  /** Rows in the library regardless of `query`. */
  total: number;
  query: string;
  /** False until the first listing has arrived (avoids flashing the empty state). */
  libraryLoaded: boolean;
  /** null while loading. */
  templates: TemplateSummary[] | null;
  templatesError: string | null;
  appInfo: AppInfo | null;
  /** A long operation in progress ("Importing…"), shown as a busy hint; null when idle. */
  busy: string | null;
  /** Recovers journalled edits, lists the library, reopens the most recent town. */
  init(): Promise<void>;
  refresh(): Promise<void>;
  setQuery(query: string): void;
  loadTemplates(): Promise<void>;
  createBlank(name?: string): Promise<void>;
  createFromTemplate(templateId: string): Promise<void>;
  duplicate(id: string): Promise<void>;
  rename(id: string, name: string): Promise<void>;
  /** Deletes a scenario and offers undo in a toast. */
  remove(id: string): Promise<void>;
  importPack(fileName: string, bytes: Uint8Array): Promise<void>;
  /**
   * Adds a scenario another tool's files were turned into (interop.*) to the library and
   * opens it; its warnings are listed under `source`. Failures are reported, not thrown.
   */
  addImported(source: string, result: ImportedScenario): Promise<boolean>;
  /** Packs the open scenario; null when nothing is open or the export failed (reported). */
  exportOpen(): Promise<{ fileName: string; bytes: Uint8Array<ArrayBuffer> } | null>;
}

export interface DocumentSlice {
  /** The open scenario, as last edited (autosave trails it by at most the debounce). */
  doc: Scenario | null;
  saveState: SaveState;
  selectedPersonaId: string | null;
  open(id: string): Promise<void>;
  close(): Promise<void>;
  /** True when there is a step to undo / redo (history of the open scenario). */
  canUndo: boolean;
  canRedo: boolean;
  /**
   * Applies an edit to the open scenario and schedules its autosave. Recorded edits (the
   * default) are one undo step each; pass `'ignore'` for writes the user did not make.
   */
  updateDoc(recipe: (doc: Scenario) => Scenario, history?: HistoryMode): void;
  /** Replaces the open scenario, stating what history does with it. */
  writeDoc(next: Scenario, history: HistoryMode, label?: string): void;
  undo(): void;
  redo(): void;
  updatePersona(id: string, patch: Partial<Persona>): void;
  selectPersona(id: string | null): void;
  /** Writes any pending edit now. */
  flush(): Promise<void>;
}

/** One problem shown in the error panel. */
export interface ErrorNotice {
  id: number;
  title: string;
  message: string;
  file?: string;
  issues?: ValidationIssue[];
}

/** A transient message, optionally with an undo. */
export interface Toast {
  id: number;
  message: string;
  /** Present when the toast offers "Undo". */
  undo?: () => Promise<void>;
}

export interface NoticeSlice {
  errors: ErrorNotice[];
  toast: Toast | null;
  /** Records an error for the panel; understands ApiError/ScenarioError issues and files. */
  reportError(title: string, err: unknown): void;
  dismissError(id: number): void;
  showToast(message: string, undo?: () => Promise<void>): void;
  dismissToast(): void;
}

export type StudioState = LibrarySlice & DocumentSlice & NoticeSlice;

/** Objects the slices share that are not state (never rendered, never in React). */
export interface StudioRuntime {
  deps: StudioDeps;
  autosaver: Autosaver;
  /** The row removed last, kept for the toast's undo. */
  lastDeleted: ScenarioRow | null;
  /** The open document's writes and history (see editor/DocHost.ts). */
  docHost: DocHost;
}

export type SliceCreator<T> = (runtime: StudioRuntime) => StateCreator<StudioState, [], [], T>;
