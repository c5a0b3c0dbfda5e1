/**
 * The studio shell: header, library sidebar, the open town (canvas), and its details panel.
 * Owns the few things that span regions: the hidden file picker, export-to-download,
 * the template dialog, the studio's keyboard shortcuts and their sheet (`?`).
 */
import { useCallback, useRef, useState } from 'react';
import { useStudio, useStudioStore } from './stores/studioStore';
import { downloadBytes } from './util/download';
import { Header } from './components/Header';
import { Sidebar } from './components/Sidebar';
import { MainArea } from './components/MainArea';
import { RightPanel } from './components/RightPanel';
import { ErrorPanel, ToastHost } from './components/Notices';
import { TemplateGalleryDialog } from './components/TemplateGallery';
import { RunProvider, useRun } from './run/RunProvider';
import { RunPanel } from './run/RunPanel';
import { useLabNav } from './lab/labNav';
import { STUDIO_SHORTCUTS } from './shortcuts/registry';
import { ShortcutSheet, useShortcutSheet } from './shortcuts/ShortcutSheet';
import { useShortcuts } from './shortcuts/useShortcuts';

/** Largest pack the picker accepts, bytes; the API's base64 ceiling is 64 MiB (≈ 48 MiB raw). */
const MAX_PACK_BYTES = 48 * 1024 * 1024;

/** The shell inside the run store's provider (runs are followed for the window's lifetime). */
export function App() {
  return (
    <RunProvider>
      <Shell />
    </RunProvider>
  );
}

function Shell() {
  const store = useStudioStore();
  const hasDoc = useStudio((s) => s.doc !== null);
  const labOpen = useLabNav((s) => s.open);
  const [galleryOpen, setGalleryOpen] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const newBlank = useCallback(() => void store.getState().createBlank(), [store]);
  const pickImport = useCallback(() => fileRef.current?.click(), []);
  const exportOpen = useCallback(async () => {
    const pack = await store.getState().exportOpen();
    if (pack) downloadBytes(pack.fileName, pack.bytes);
  }, [store]);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_PACK_BYTES) {
      store.getState().reportError(`Could not import ${file.name}`, {
        message: `The file is ${(file.size / 1048576).toFixed(1)} MiB; packs can be at most ${MAX_PACK_BYTES / 1048576} MiB.`,
      });
      return;
    }
    await store.getState().importPack(file.name, new Uint8Array(await file.arrayBuffer()));
  };

  useShortcuts(STUDIO_SHORTCUTS, {
    'studio.newBlank': newBlank,
    'studio.export': () => void exportOpen(),
    'studio.import': pickImport,
    'studio.search': () => {
      searchRef.current?.focus();
      searchRef.current?.select();
    },
    'studio.shortcuts': () => useShortcutSheet.getState().setOpen(true),
  });

  return (
    <div className={`app ${hasDoc && !labOpen ? 'app--open' : ''}`}>
      <Header onExport={() => void exportOpen()} />
      <Sidebar
        searchRef={searchRef}
        onNewBlank={newBlank}
        onShowTemplates={() => setGalleryOpen(true)}
        onImport={pickImport}
      />
      <MainArea onNewBlank={newBlank} onImport={pickImport} />
      <SidePanel />
      <input
        ref={fileRef}
        type="file"
        accept=".simpack,.zip"
        hidden
        data-testid="import-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Clear so choosing the same file again still fires a change.
          e.target.value = '';
          void onFile(file);
        }}
      />
      {galleryOpen && <TemplateGalleryDialog onClose={() => setGalleryOpen(false)} />}
      <ShortcutSheet />
      <ErrorPanel />
      <ToastHost />
    </div>
  );
}

/** The right panel: the town's details while editing; people, events and charts while simulating. */
function SidePanel() {
  const simulating = useRun((s) => s.open);
  const hasDoc = useStudio((s) => s.doc !== null);
  const labOpen = useLabNav((s) => s.open);
  // The Lab is wide (grid, report): it takes the side panel's room too.
  if (!hasDoc || labOpen) return null;
  return simulating ? <RunPanel /> : <RightPanel />;
}
