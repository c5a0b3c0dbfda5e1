/** The library sidebar: search, create/import actions, and the recent list. */
import { IconButton } from './IconButton';
import { useRef, useState, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { scenarioShape } from '../../../common/scenario/schema';
import { useStudio } from '../stores/studioStore';
import type { CorruptEntry, LibraryEntry } from '../library/repository';
import { relativeTime } from '../util/time';
import { RunLibrary } from '../run/RunLibrary';
import { InteropImports } from '../interop/InteropImports';

export interface SidebarProps {
  searchRef: RefObject<HTMLInputElement | null>;
  onNewBlank(): void;
  onShowTemplates(): void;
  onImport(): void;
}

export function Sidebar({ searchRef, onNewBlank, onShowTemplates, onImport }: SidebarProps) {
  const query = useStudio((s) => s.query);
  const setQuery = useStudio((s) => s.setQuery);
  const entries = useStudio((s) => s.entries);
  const corrupt = useStudio((s) => s.corrupt);
  const { total, loaded } = useStudio(
    useShallow((s) => ({ total: s.total, loaded: s.libraryLoaded })),
  );

  return (
    <aside className="sidebar" aria-label="Library">
      <div className="sidebar__actions">
        <button
          type="button"
          className="button button--primary"
          data-testid="new-blank"
          onClick={onNewBlank}
          title="New blank town (Ctrl+N)"
        >
          + New town
        </button>
        <div className="sidebar__row">
          <button
            type="button"
            className="button"
            data-testid="new-from-template"
            onClick={onShowTemplates}
          >
            From template
          </button>
          <button
            type="button"
            className="button"
            data-testid="import-button"
            onClick={onImport}
            title="Import .simpack (Ctrl+O)"
          >
            Import…
          </button>
        </div>
        <InteropImports />
      </div>
      <div className="search">
        <input
          ref={searchRef}
          type="search"
          className="search__input"
          placeholder="Search towns"
          aria-label="Search towns"
          data-testid="library-search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              setQuery('');
              e.currentTarget.blur();
            }
          }}
        />
        <kbd className="search__kbd">/</kbd>
      </div>
      <div className="sidebar__heading">
        <span>Recent</span>
        <span className="muted">{loaded ? total : ''}</span>
      </div>
      <ul className="library-list" data-testid="library-list">
        {entries.map((e) => (
          <LibraryItem key={e.id} entry={e} />
        ))}
        {corrupt.map((c) => (
          <CorruptItem key={c.id} entry={c} />
        ))}
        {loaded && total === 0 && (
          <li className="sidebar__empty">No towns yet. Create one or import a .simpack.</li>
        )}
        {loaded && total > 0 && entries.length + corrupt.length === 0 && (
          <li className="sidebar__empty" data-testid="search-empty">
            No town matches “{query}”.
          </li>
        )}
      </ul>
      <RunLibrary />
    </aside>
  );
}

function LibraryItem({ entry }: { entry: LibraryEntry }) {
  const active = useStudio((s) => s.doc?.id === entry.id);
  const open = useStudio((s) => s.open);
  const rename = useStudio((s) => s.rename);
  const duplicate = useStudio((s) => s.duplicate);
  const remove = useStudio((s) => s.remove);
  const [renaming, setRenaming] = useState(false);

  return (
    <li
      className={`library-item ${active ? 'library-item--active' : ''}`}
      data-testid="library-item"
      data-scenario-id={entry.id}
    >
      {renaming ? (
        <RenameInput
          initial={entry.name}
          onDone={(name) => {
            setRenaming(false);
            if (name !== null && name !== entry.name) void rename(entry.id, name);
          }}
        />
      ) : (
        <button
          type="button"
          className="library-item__main"
          onClick={() => void open(entry.id)}
          onDoubleClick={() => setRenaming(true)}
          aria-current={active ? 'true' : undefined}
        >
          <span className="library-item__name" data-testid="library-item-name">
            {entry.name}
          </span>
          <span className="library-item__meta">
            {entry.personas} {entry.personas === 1 ? 'person' : 'people'} · {entry.width}×
            {entry.height} · {relativeTime(entry.updatedAt)}
          </span>
        </button>
      )}
      {!renaming && (
        <div className="library-item__tools">
          <IconButton
            className="icon-button"
            title="Rename"
            label={`Rename ${entry.name}`}
            testId="library-rename"
            onClick={() => setRenaming(true)}
          >
            ✎
          </IconButton>
          <IconButton
            className="icon-button"
            title="Duplicate"
            label={`Duplicate ${entry.name}`}
            testId="library-duplicate"
            onClick={() => void duplicate(entry.id)}
          >
            ⧉
          </IconButton>
          <IconButton
            className="icon-button icon-button--danger"
            title="Delete"
            label={`Delete ${entry.name}`}
            testId="library-delete"
            onClick={() => void remove(entry.id)}
          >
            ✕
          </IconButton>
        </div>
      )}
    </li>
  );
}

/** Inline rename: Enter or leaving the field commits, Escape cancels; blank names are refused. */
function RenameInput({ initial, onDone }: { initial: string; onDone(name: string | null): void }) {
  const [draft, setDraft] = useState(initial);
  // Escape unmounts the input, and some engines then fire blur: finish only once.
  const done = useRef(false);
  const parsed = scenarioShape.shape.name.safeParse(draft);
  const finish = (commit: boolean) => {
    if (done.current) return;
    done.current = true;
    onDone(commit && parsed.success ? parsed.data : null);
  };
  return (
    <div className="library-item__rename">
      <input
        autoFocus
        className={parsed.success ? '' : 'invalid'}
        aria-label="New name"
        data-testid="library-rename-input"
        value={draft}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => finish(true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') finish(true);
          else if (e.key === 'Escape') finish(false);
        }}
      />
    </div>
  );
}

function CorruptItem({ entry }: { entry: CorruptEntry }) {
  const reportError = useStudio((s) => s.reportError);
  const remove = useStudio((s) => s.remove);
  return (
    <li
      className="library-item library-item--corrupt"
      data-testid="library-corrupt"
      data-scenario-id={entry.id}
    >
      <button
        type="button"
        className="library-item__main"
        onClick={() =>
          reportError(`“${entry.name}” cannot be opened`, {
            message: 'The stored scenario is damaged.',
            file: entry.id,
            issues: entry.issues,
          })
        }
      >
        <span className="library-item__name">⚠ {entry.name}</span>
        <span className="library-item__meta">
          damaged · {entry.issues.length} issue(s) · click for details
        </span>
      </button>
      <div className="library-item__tools">
        <button
          type="button"
          className="icon-button icon-button--danger"
          title="Delete"
          aria-label={`Delete ${entry.name}`}
          onClick={() => void remove(entry.id)}
        >
          ✕
        </button>
      </div>
    </li>
  );
}
