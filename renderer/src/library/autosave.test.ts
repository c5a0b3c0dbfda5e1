import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Scenario } from '../../../common/scenario/schema';
import { LibraryDb } from './db';
import { ScenarioRepository } from './repository';
import {
  bindPageLifecycle,
  createAutosaver,
  recoverJournal,
  storageJournal,
  type SaveState,
} from './autosave';
import { smallTown } from '../test/fixtures';

/** A Web Storage over a Map (Node has no localStorage). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
  };
}

const named = (name: string): Scenario => ({ ...smallTown(), name });

describe('autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('coalesces a burst of edits into one write of the last version after the debounce', async () => {
    const saved: string[] = [];
    const saver = createAutosaver({ delayMs: 250, save: async (d) => void saved.push(d.name) });
    saver.schedule(named('A'));
    saver.schedule(named('AB'));
    saver.schedule(named('ABC'));
    await vi.advanceTimersByTimeAsync(249);
    expect(saved).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await saver.flush();
    expect(saved).toEqual(['ABC']);
    expect(saver.busy).toBe(false);
  });

  it('flush writes the pending edit at once, and writes never overlap', async () => {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const saver = createAutosaver({
      save: async (d) => {
        log.push(`start ${d.name}`);
        if (d.name === 'one') await gate;
        log.push(`end ${d.name}`);
      },
    });
    saver.schedule(named('one'));
    const first = saver.flush();
    saver.schedule(named('two'));
    const second = saver.flush();
    await Promise.resolve();
    expect(log).toEqual(['start one']);
    release();
    await Promise.all([first, second]);
    expect(log).toEqual(['start one', 'end one', 'start two', 'end two']);
  });

  it('reports pending → saving → saved, and error when a write fails', async () => {
    const states: SaveState[] = [];
    let fail = false;
    const saver = createAutosaver({
      save: async () => {
        if (fail) throw new Error('disk full');
      },
      onState: (s) => states.push(s),
    });
    saver.schedule(named('x'));
    await saver.flush();
    fail = true;
    saver.schedule(named('y'));
    await saver.flush();
    expect(states).toEqual(['pending', 'saving', 'saved', 'pending', 'saving', 'error']);
  });

  it('cancel drops the pending edit', async () => {
    const save = vi.fn(async () => {});
    const saver = createAutosaver({ save });
    saver.schedule(named('x'));
    saver.cancel();
    await vi.advanceTimersByTimeAsync(1000);
    await saver.flush();
    expect(save).not.toHaveBeenCalled();
  });

  it('flushes when the page is hidden or hidden away, journalling the pending edit first', async () => {
    const doc = new EventTarget() as EventTarget & { visibilityState: DocumentVisibilityState };
    doc.visibilityState = 'visible';
    const win = new EventTarget();
    const journal = storageJournal(memoryStorage());
    const saved: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const saver = createAutosaver({
      journal,
      save: async (d) => {
        await gate;
        saved.push(d.name);
      },
    });
    const unbind = bindPageLifecycle(saver, doc as never, win as never);

    saver.schedule(named('hidden'));
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    // The journal holds the edit synchronously, before the asynchronous write finishes.
    expect(journal.entries().map((e) => (e.doc as Scenario).name)).toEqual(['hidden']);
    release();
    await saver.flush();
    expect(saved).toEqual(['hidden']);
    // A completed write clears its journal entry.
    expect(journal.entries()).toEqual([]);

    saver.schedule(named('gone'));
    win.dispatchEvent(new Event('pagehide'));
    await saver.flush();
    expect(saved).toEqual(['hidden', 'gone']);

    unbind();
    saver.schedule(named('after'));
    win.dispatchEvent(new Event('pagehide'));
    expect(saved).toEqual(['hidden', 'gone']);
  });
});

describe('journal recovery', () => {
  let db: LibraryDb;
  beforeEach(() => {
    db = new LibraryDb(`journal-${Math.random()}`);
  });
  afterEach(() => db.delete());

  it('replays an edit journalled after the last stored write, and only that', async () => {
    let clock = 100;
    const repo = new ScenarioRepository(db, { now: () => clock });
    await repo.create(smallTown('kept', 'Kept'));
    await repo.create(smallTown('stale', 'Stale'));
    let journalClock = 500;
    const storage = memoryStorage();
    const journal = storageJournal(storage, () => journalClock);
    journal.write({ ...smallTown('kept', 'Kept'), description: 'typed just before reload' });
    journalClock = 50; // older than what the library holds
    journal.write({ ...smallTown('stale', 'Stale'), description: 'old' });
    journal.write(smallTown('deleted', 'Deleted')); // no such row
    storage.setItem('simulacra.journal.broken', '{not json');
    clock = 1000;

    const recovered = await recoverJournal(journal, repo);
    expect(recovered).toEqual(['kept']);
    const kept = await repo.get('kept');
    expect(kept.ok && kept.scenario.description).toBe('typed just before reload');
    const stale = await repo.get('stale');
    expect(stale.ok && stale.scenario.description).toBe('A test hamlet.');
    expect((await repo.list()).total).toBe(2);
    expect(journal.entries()).toEqual([]);
  });
});
