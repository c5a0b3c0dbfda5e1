/** The list of every keyboard shortcut (`?`), generated from the registry. */
import { create } from 'zustand';
import { Dialog } from '../components/Dialog';
import { formatChord } from './chord';
import { SHORTCUT_GROUPS } from './registry';
import './shortcuts.css';

/** Whether the sheet is open: `?` and the status bar's "Shortcuts" button both open it. */
export const useShortcutSheet = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

export function ShortcutSheet() {
  const open = useShortcutSheet((s) => s.open);
  const setOpen = useShortcutSheet((s) => s.setOpen);
  if (!open) return null;
  return (
    <Dialog title="Keyboard shortcuts" testId="shortcut-sheet" onClose={() => setOpen(false)}>
      <div className="shortcut-sheet">
        {SHORTCUT_GROUPS.map((g) => (
          <section key={g.title} className="shortcut-sheet__group">
            <h3>{g.title}</h3>
            <table>
              <tbody>
                {g.shortcuts.map((s) => (
                  <tr key={s.id} data-testid="shortcut-row" data-shortcut={s.id}>
                    <td className="shortcut-sheet__keys">
                      {s.keys.map((k, i) => (
                        <span key={k}>
                          {i > 0 && <span className="muted"> or </span>}
                          <kbd>{formatChord(k)}</kbd>
                        </span>
                      ))}
                    </td>
                    <td>{s.label}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
