/**
 * The native menu, as data: File (new, open, recent, export, settings), Edit (undo/redo go to
 * the page, whose document history owns them; clipboard roles stay native), View, Help.
 * Built by a pure function so its shape and shortcuts are unit-tested without Electron.
 *
 * Shortcuts the page already handles itself (Ctrl+N/O/E/Z/Y, Ctrl+Shift+Z) are shown but not
 * registered (`registerAccelerator: false`), so one key press never acts twice.
 */
import { basename } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import type { ShellCommand } from '../../common/api/desktop';
import type { RecentList } from './recent';

export interface MenuActions {
  /** Sends a command to the page. */
  command(command: ShellCommand): void;
  /** File ▸ Open pack…: the native file dialog (main reads the file). */
  openPackDialog(): void;
  openRecent(path: string): void;
  clearRecent(): void;
  openDataFolder(): void;
  about(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  recent: RecentList;
  /** Developer tools and reload only in development builds. */
  isPackaged: boolean;
  appName: string;
}

export function buildMenuTemplate(
  opts: MenuOptions,
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const mac = opts.platform === 'darwin';
  const pageKey = (
    label: string,
    accelerator: string,
    command: ShellCommand,
  ): MenuItemConstructorOptions => ({
    label,
    accelerator,
    registerAccelerator: false,
    click: () => actions.command(command),
  });

  const recent: MenuItemConstructorOptions[] = opts.recent.length
    ? [
        ...opts.recent.map((e): MenuItemConstructorOptions => ({
          label: basename(e.path),
          sublabel: e.path,
          toolTip: e.path,
          click: () => actions.openRecent(e.path),
        })),
        { type: 'separator' },
        { label: 'Clear Recent', click: actions.clearRecent },
      ]
    : [{ label: 'No recent packs', enabled: false }];

  const settingsItem: MenuItemConstructorOptions = {
    label: mac ? 'Settings…' : 'Settings',
    accelerator: 'CmdOrCtrl+,',
    click: () => actions.command('settings'),
  };

  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      pageKey('New Town', 'CmdOrCtrl+N', 'new-blank'),
      {
        label: 'New from Template…',
        accelerator: 'CmdOrCtrl+Shift+N',
        click: () => actions.command('new-from-template'),
      },
      { type: 'separator' },
      {
        label: 'Open Pack…',
        accelerator: 'CmdOrCtrl+O',
        registerAccelerator: false,
        click: actions.openPackDialog,
      },
      { label: 'Open Recent', submenu: recent },
      { type: 'separator' },
      pageKey('Export .simpack…', 'CmdOrCtrl+E', 'export'),
      ...(mac ? [] : [{ type: 'separator' } as const, settingsItem]),
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit', label: 'E&xit' },
    ],
  };

  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      pageKey('Undo', 'CmdOrCtrl+Z', 'undo'),
      pageKey('Redo', mac ? 'Shift+CmdOrCtrl+Z' : 'CmdOrCtrl+Y', 'redo'),
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...(opts.isPackaged
        ? []
        : ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as const)),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };

  const help: MenuItemConstructorOptions = {
    label: '&Help',
    role: 'help',
    submenu: [
      { label: 'Open Data Folder', click: actions.openDataFolder },
      ...(mac ? [] : [{ label: `About ${opts.appName}`, click: actions.about }]),
    ],
  };

  const appMenu: MenuItemConstructorOptions = {
    label: opts.appName,
    submenu: [
      { role: 'about' },
      { type: 'separator' },
      settingsItem,
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  };

  return [...(mac ? [appMenu] : []), file, edit, view, help];
}
