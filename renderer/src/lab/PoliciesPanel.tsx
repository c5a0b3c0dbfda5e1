/**
 * The lifestyle policies the town's people have learned across runs (runs with the lifestyle
 * policy on store every plan decomposition that worked, and reuse it when a new plan is similar
 * enough and its objects are in the same state). Per person: each plan with its tasks, places
 * and condition; clear one person's or everyone's, after a confirm (there is no undo).
 */
import { useState } from 'react';
import type { Scenario } from '../../../common/scenario/schema';
import type { LabState } from './labStore';

export function PoliciesPanel({
  doc,
  lab,
}: {
  doc: Scenario;
  lab: Pick<LabState, 'policies' | 'clearPolicies'>;
}) {
  const [confirm, setConfirm] = useState<string | null>(null);
  const personaIds = doc.personas.map((p) => p.id);
  const nameOf = (id: string | null, key: string) => {
    const p = doc.personas.find((x) => x.id === id);
    return p ? `${p.firstName} ${p.lastName}`.trim() : `${key} (no longer in this town)`;
  };
  const entries = lab.policies?.personas ?? [];
  const total = entries.reduce((n, e) => n + e.policies.length, 0);

  const clear = (personaId?: string) => {
    setConfirm(null);
    void lab.clearPolicies(doc.id, personaIds, personaId);
  };

  const confirmRow = (what: string, personaId?: string) => (
    <span className="lab-confirm" data-testid="lab-policies-confirm">
      Delete {what} for good? There is no undo; later runs start learning again.
      <button
        type="button"
        className="button button--danger"
        data-testid="lab-policies-confirm-yes"
        onClick={() => clear(personaId)}
      >
        Delete
      </button>
      <button type="button" className="button" onClick={() => setConfirm(null)}>
        Keep
      </button>
    </span>
  );

  return (
    <section className="lab-policies" data-testid="lab-policies">
      <header className="lab-detail__head">
        <h3 className="lab__heading">Lifestyle policies</h3>
        <span className="panel__count">{total}</span>
        <span className="run-toolbar__spacer" />
        {total > 0 &&
          (confirm === '*' ? (
            confirmRow(`all ${total} policies of this town`)
          ) : (
            <button
              type="button"
              className="button"
              data-testid="lab-policies-clear-all"
              onClick={() => setConfirm('*')}
            >
              Clear all…
            </button>
          ))}
      </header>
      {lab.policies === null ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="panel__empty" data-testid="lab-policies-empty">
          No stored policies. Runs of this town with the lifestyle policy on keep each plan
          decomposition that worked here, per person, and reuse it in later runs.
        </p>
      ) : (
        entries.map((e) => (
          <details key={e.key} className="lab-policies__person" data-testid="lab-policies-person">
            <summary>
              <strong>{nameOf(e.personaId, e.key)}</strong>{' '}
              <span className="muted">
                {e.error
                  ? 'unreadable file'
                  : `${e.policies.length} polic${e.policies.length === 1 ? 'y' : 'ies'}`}
              </span>
              {confirm === e.key ? (
                confirmRow(`${nameOf(e.personaId, e.key)}’s policies`, e.personaId ?? undefined)
              ) : (
                <button
                  type="button"
                  className="button button--small"
                  data-testid="lab-policies-clear"
                  disabled={e.personaId === null}
                  title={
                    e.personaId === null
                      ? 'Use “Clear all” for people no longer in the town'
                      : undefined
                  }
                  onClick={(ev) => {
                    ev.preventDefault();
                    setConfirm(e.key);
                  }}
                >
                  Clear…
                </button>
              )}
            </summary>
            {e.error && <p className="field__error">{e.error}</p>}
            <ol className="lab-policies__list">
              {e.policies.map((p) => (
                <li key={p.id}>
                  <div>
                    <strong>{p.plan}</strong> <span className="muted">stored {p.storedAt}</span>
                  </div>
                  <ul>
                    {p.tasks.map((t, i) => (
                      <li key={i}>
                        {t.task}{' '}
                        <span className="muted">
                          ({t.minutes} min,{' '}
                          {t.location ?? 'not reached: its place is chosen on reuse'})
                        </span>
                      </li>
                    ))}
                  </ul>
                  {p.condition.length > 0 && (
                    <div className="muted">
                      Reused only when{' '}
                      {p.condition.map((c) => `${c.object} is “${c.state}”`).join(', ')}
                    </div>
                  )}
                </li>
              ))}
            </ol>
          </details>
        ))
      )}
      {lab.policies && <p className="field__hint">Stored in {lab.policies.folder}</p>}
    </section>
  );
}
