/**
 * The interview battery on a stored run of the town (Park et al. §6.1's five areas, our own
 * questions): its people answer at the run's last snapshot, on a private copy, so the run is
 * not changed. Answers are grouped by question, one line per person, to read side by side.
 */
import { useEffect, useMemo, useState } from 'react';
import { BATTERY_AREAS } from '../../../common/api/lab';
import type { Scenario } from '../../../common/scenario/schema';
import { LabelledField } from '../components/LabelledField';
import type { LabState } from './labStore';

export function InterviewPanel({
  doc,
  lab,
}: {
  doc: Scenario;
  lab: Pick<LabState, 'runs' | 'interview' | 'pending' | 'interviewRun'>;
}) {
  const stored = lab.runs.filter((r) => r.status === 'stored' || r.status === 'crashed');
  const [runId, setRunId] = useState('');
  const [agent, setAgent] = useState('');
  const [areas, setAreas] = useState<Set<string>>(() => new Set(BATTERY_AREAS));
  const [perCategory, setPerCategory] = useState(1);
  useEffect(() => {
    if (!stored.some((r) => r.id === runId)) setRunId(stored[0]?.id ?? '');
  }, [stored, runId]);

  const grouped = useMemo(() => {
    const out = new Map<
      string,
      { question: string; category: string; lines: [string, string][] }
    >();
    for (const a of lab.interview?.answers ?? []) {
      // The {other} slot differs per person: group by the template id, show each wording.
      const g = out.get(a.questionId) ?? { question: a.question, category: a.category, lines: [] };
      g.lines.push([
        a.agentName,
        a.question === g.question ? a.answer : `(${a.question}) ${a.answer}`,
      ]);
      out.set(a.questionId, g);
    }
    return [...out.values()];
  }, [lab.interview]);

  const busy = lab.pending === 'interview';
  const ask = () =>
    void lab.interviewRun({
      runId,
      ...(agent ? { agentIds: [agent] } : {}),
      categories: BATTERY_AREAS.filter((a) => areas.has(a)),
      perCategory,
    });

  return (
    <section className="lab-policies" data-testid="lab-interview">
      <h3 className="lab__heading">Interview battery</h3>
      {stored.length === 0 ? (
        <p className="panel__empty">
          No stored run of this town yet: simulate it (and close the run) to interview its people.
        </p>
      ) : (
        <>
          <div className="lab-form__grid">
            <LabelledField label="Run">
              <select
                className="select"
                data-testid="lab-interview-run"
                value={runId}
                onChange={(e) => setRunId(e.target.value)}
              >
                {stored.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name} · {r.endClock}
                  </option>
                ))}
              </select>
            </LabelledField>
            <LabelledField label="Who">
              <select
                className="select"
                data-testid="lab-interview-agent"
                value={agent}
                onChange={(e) => setAgent(e.target.value)}
              >
                <option value="">Everyone</option>
                {doc.personas.map((p) => (
                  <option key={p.id} value={p.id}>
                    {`${p.firstName} ${p.lastName}`.trim()}
                  </option>
                ))}
              </select>
            </LabelledField>
          </div>
          <div className="lab-areas">
            {BATTERY_AREAS.map((a) => (
              <label key={a} className="lab-models__row">
                <input
                  type="checkbox"
                  checked={areas.has(a)}
                  onChange={() =>
                    setAreas((s) => {
                      const next = new Set(s);
                      if (next.has(a)) next.delete(a);
                      else next.add(a);
                      return next;
                    })
                  }
                />
                {a}
              </label>
            ))}
          </div>
          <div className="lab-form__actions">
            <label className="lab-models__row">
              Questions per area
              <input
                type="number"
                min={1}
                max={5}
                className="input lab-number"
                value={perCategory}
                onChange={(e) =>
                  setPerCategory(Math.min(5, Math.max(1, Math.round(Number(e.target.value)))))
                }
              />
            </label>
            <button
              type="button"
              className="button"
              data-testid="lab-interview-ask"
              disabled={!runId || areas.size === 0 || busy}
              onClick={ask}
            >
              {busy ? 'Asking…' : 'Ask'}
            </button>
          </div>
        </>
      )}
      {lab.interview && (
        <div className="lab-answers" data-testid="lab-interview-answers">
          <p className="muted">
            {lab.runs.find((r) => r.id === lab.interview!.runId)?.name ?? lab.interview.runId} at{' '}
            {lab.interview.clock} (step {lab.interview.step}); nothing was remembered.
          </p>
          {grouped.map((g) => (
            <div key={g.question} className="lab-answers__q">
              <div>
                <span className="muted">{g.category}</span> <strong>{g.question}</strong>
              </div>
              <ul>
                {g.lines.map(([who, answer], i) => (
                  <li key={i}>
                    <strong>{who}:</strong> {answer}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
