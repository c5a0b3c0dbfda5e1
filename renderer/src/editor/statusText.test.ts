import { describe, expect, it } from 'vitest';
import { toolStatus } from './statusText';
import { TestMapEditor } from './test/TestMapEditor';
import { TOOLS } from './tools/toolList';

describe('the status bar words', () => {
  it('says what the tool does when idle, in words', () => {
    expect(toolStatus('hand.idle')).toBe('Hand — drag to pan (or hold Space)');
    expect(toolStatus('brush.idle')).toBe('Brush — drag to paint the active layer');
  });

  it('says what a gesture is doing and how to end it', () => {
    expect(toolStatus('brush.painting')).toBe('Brush — painting; release to finish, Esc to cancel');
    expect(toolStatus('rect.dragging')).toMatch(/^Rectangle — drawing a rectangle/);
  });

  it('has words for every state the editor can be in (no state-machine names leak)', () => {
    const ed = new TestMapEditor();
    const paths = new Set<string>();
    for (const t of TOOLS) {
      ed.setTool(t.id);
      paths.add(ed.getPath());
      ed.pointerDownAt(2, 2);
      paths.add(ed.getPath());
      ed.pointerUpAt(2, 2);
    }
    expect(paths.size).toBeGreaterThan(TOOLS.length);
    for (const p of paths) {
      const words = toolStatus(p);
      const state = p.split('.')[1];
      expect(words, p).not.toContain('.');
      expect(words.endsWith(` — ${state}`), `${p} has no words: "${words}"`).toBe(false);
    }
  });
});
