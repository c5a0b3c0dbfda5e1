/**
 * What the desktop shell asks of the page, and the settings entry point in the header.
 * Packs opened from the OS (double-click, argv, File ▸ Open, Recent) arrive as
 * shell.onDidRequestOpenPack and go through the ordinary import (packs.import validates them);
 * native menu commands arrive as shell.onDidRequestCommand. In web mode neither fires, and the
 * settings button and Ctrl+, work the same.
 */
import { useCallback, useEffect, useState } from 'react';
import type { OpenPackRequest, ShellCommand } from '../../../common/api/desktop';
import { studio } from '../api/studio';
import { TemplateGalleryDialog } from '../components/TemplateGallery';
import { SettingsDialog } from '../settings/SettingsDialog';
import { useStudioStore } from '../stores/studioStore';
import { closeSettings, openSettings, useServers } from '../servers/serversStore';
import { STUDIO_SHORTCUTS } from '../shortcuts/registry';
import { isTyping, useShortcuts } from '../shortcuts/useShortcuts';
import { base64ToBytes } from '../util/base64';
import { downloadBytes } from '../util/download';

export function DesktopShell() {
  const store = useStudioStore();
  // In the shared servers store, so the run and Lab forms can open it at "Model servers".
  const settings = useServers((s) => s.settings);
  const [galleryOpen, setGalleryOpen] = useState(false);

  const runCommand = useCallback(
    (command: ShellCommand) => {
      const state = store.getState();
      switch (command) {
        case 'new-blank':
          return void state.createBlank();
        case 'new-from-template':
          return setGalleryOpen(true);
        case 'export':
          return void state.exportOpen().then((pack) => {
            if (pack) downloadBytes(pack.fileName, pack.bytes);
          });
        case 'undo':
        case 'redo':
          // Text fields keep their own native undo; everywhere else it is the town's history.
          // Text fields keep their own native undo.
          if (isTyping(document.activeElement)) document.execCommand(command);
          else if (command === 'undo') store.editor.undo();
          else store.editor.redo();
          return;
        case 'settings':
          return openSettings();
      }
    },
    [store],
  );

  useEffect(() => {
    const open = (r: OpenPackRequest) =>
      void store.getState().importPack(r.fileName, base64ToBytes(r.data));
    const offOpen = studio.shell.onDidRequestOpenPack(open);
    const offCommand = studio.shell.onDidRequestCommand(({ command }) => runCommand(command));
    // Packs from the launch waited for us; taking them empties main's queue, so every result
    // is imported even if this effect was torn down meanwhile (StrictMode remounts).
    studio.shell.takeOpenRequests({}).then(
      (waiting) => waiting.forEach(open),
      (err: unknown) => store.getState().reportError('Could not receive the packs to open', err),
    );
    return () => {
      offOpen();
      offCommand();
    };
  }, [store, runCommand]);

  // A damaged settings.json is worth saying at launch, not only when Settings is opened.
  useEffect(() => {
    studio.settings.get({}).then(
      (s) => {
        if (s.notice)
          store.getState().reportError('Settings were reset to defaults', { message: s.notice });
      },
      () => undefined, // the host is unreachable: the library already says so
    );
  }, [store]);

  useShortcuts(STUDIO_SHORTCUTS, { 'studio.settings': () => openSettings() });

  return (
    <>
      <button
        type="button"
        className="icon-button"
        data-testid="settings-button"
        aria-label="Settings"
        title="Settings (Ctrl+,)"
        onClick={() => openSettings()}
      >
        ⚙
      </button>
      {settings && <SettingsDialog section={settings.section} onClose={closeSettings} />}
      {galleryOpen && <TemplateGalleryDialog onClose={() => setGalleryOpen(false)} />}
    </>
  );
}
