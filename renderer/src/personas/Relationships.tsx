/** "Who mentions whom" in the seeds: the social graph the residents start a run with. */
import { useMemo } from 'react';
import type { Persona } from '../../../common/scenario/schema';
import { relationships } from './model';

export function RelationshipsOverview({
  personas,
  onSelect,
}: {
  personas: readonly Persona[];
  onSelect(id: string): void;
}) {
  const rows = useMemo(() => relationships(personas), [personas]);
  const byId = useMemo(() => new Map(personas.map((p) => [p.id, p])), [personas]);
  const loners = rows.filter((r) => r.to.length === 0).length;
  if (personas.length < 2) return null;
  return (
    <div className="relationships" data-testid="relationships">
      <div className="relationships__head">
        <span className="field__label">Who mentions whom</span>
        <span className="muted">
          {rows.reduce((n, r) => n + r.to.length, 0)} links
          {loners > 0 && ` · ${loners} know nobody`}
        </span>
      </div>
      <ul className="relationships__list">
        {rows.map((r) => {
          const from = byId.get(r.from)!;
          return (
            <li key={r.from} data-testid="relationship-row" data-persona-id={r.from}>
              <button type="button" className="link-button" onClick={() => onSelect(r.from)}>
                {from.firstName}
              </button>
              <span className="relationships__arrow" aria-label="mentions">
                →
              </span>
              <span className={r.to.length ? '' : 'muted'}>
                {r.to.length ? r.to.map((id) => byId.get(id)!.firstName).join(', ') : 'nobody yet'}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
