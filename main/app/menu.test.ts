import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate, type MenuActions } from './menu';
import { addRecent } from './recent';

function record() {
  const calls: string[] = [];
  const actions: MenuActions = {
    command: (c) => void calls.push(`command ${c}`),
    openPackDialog: () => void calls.push('open dialog'),
    openRecent: (p) => void calls.push(`open ${p}`),
    clearRecent: () => void calls.push('clear'),
    openDataFolder: () => void calls.push('data folder'),
    about: () => void calls.push('about'),
  };
  return { calls, actions };
}

function items(menu: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return menu.flatMap((m) => [
    m,
    ...(Array.isArray(m.submenu) ? items(m.submenu as MenuItemConstructorOptions[]) : []),
  ]);
}
const byLabel = (menu: MenuItemConstructorOptions[], label: string) =>
  items(menu).find((i) => i.label === label);
const click = (item: MenuItemConstructorOptions | undefined) =>
  (item?.click as (() => void) | undefined)?.();

const recent = addRecent(addRecent([], '/towns/a.simpack'), '/towns/b.simpack');

describe('buildMenuTemplate', () => {
  it('has File, Edit, View and Help with the studio commands and their shortcuts', () => {
    const { calls, actions } = record();
    const menu = buildMenuTemplate(
      { platform: 'linux', recent, isPackaged: true, appName: 'Simulacra Studio' },
      actions,
    );
    expect(menu.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Help']);
    const shortcuts = Object.fromEntries(
      items(menu)
        .filter((i) => i.accelerator)
        .map((i) => [i.label, i.accelerator]),
    );
    expect(shortcuts).toMatchObject({
      'New Town': 'CmdOrCtrl+N',
      'New from Template…': 'CmdOrCtrl+Shift+N',
      'Open Pack…': 'CmdOrCtrl+O',
      'Export .simpack…': 'CmdOrCtrl+E',
      Settings: 'CmdOrCtrl+,',
      Undo: 'CmdOrCtrl+Z',
      Redo: 'CmdOrCtrl+Y',
    });
    for (const label of ['New from Template…', 'Export .simpack…', 'Undo', 'Redo', 'Settings'])
      click(byLabel(menu, label));
    click(byLabel(menu, 'Open Pack…'));
    expect(calls).toEqual([
      'command new-from-template',
      'command export',
      'command undo',
      'command redo',
      'command settings',
      'open dialog',
    ]);
    // Packaged builds carry no developer tools.
    expect(items(menu).some((i) => i.role === 'toggleDevTools')).toBe(false);
  });

  it('keys the page handles itself are shown but not registered twice', () => {
    const menu = buildMenuTemplate(
      { platform: 'linux', recent: [], isPackaged: false, appName: 'S' },
      record().actions,
    );
    for (const label of ['New Town', 'Open Pack…', 'Export .simpack…', 'Undo', 'Redo'])
      expect(byLabel(menu, label)?.registerAccelerator).toBe(false);
    expect(byLabel(menu, 'Settings')?.registerAccelerator).toBeUndefined();
    expect(items(menu).some((i) => i.role === 'toggleDevTools')).toBe(true);
  });

  it('lists recent packs newest first, opens them and clears the list', () => {
    const { calls, actions } = record();
    const menu = buildMenuTemplate(
      { platform: 'win32', recent, isPackaged: true, appName: 'S' },
      actions,
    );
    const sub = byLabel(menu, 'Open Recent')!.submenu as MenuItemConstructorOptions[];
    expect(sub.map((i) => i.label)).toEqual(['b.simpack', 'a.simpack', undefined, 'Clear Recent']);
    click(sub[0]);
    click(sub[3]);
    expect(calls).toEqual(['open /towns/b.simpack', 'clear']);
    const empty = buildMenuTemplate(
      { platform: 'win32', recent: [], isPackaged: true, appName: 'S' },
      actions,
    );
    expect(byLabel(empty, 'Open Recent')!.submenu).toEqual([
      { label: 'No recent packs', enabled: false },
    ]);
  });

  it('on macOS has the app menu with Settings, and redo on Shift+Cmd+Z', () => {
    const menu = buildMenuTemplate(
      { platform: 'darwin', recent: [], isPackaged: true, appName: 'Simulacra Studio' },
      record().actions,
    );
    expect(menu.map((m) => m.label)).toEqual([
      'Simulacra Studio',
      '&File',
      '&Edit',
      '&View',
      '&Help',
    ]);
    expect(byLabel(menu, 'Settings…')?.accelerator).toBe('CmdOrCtrl+,');
    expect(byLabel(menu, 'Redo')?.accelerator).toBe('Shift+CmdOrCtrl+Z');
  });
});
