/**
 * The agent inspector: who they are, what they are doing and why — plan and schedule, the memory
 * stream (filter, search), the latest retrievals with their scores, reflections as a tree with
 * their evidence, relationships and conversations — plus the interview chat and the whisper.
 */
import { useMemo, useState } from 'react';
import type { AgentDetail } from '../../../common/api/runs';
import { useShallow } from 'zustand/react/shallow';
import { useRun, useRunStore } from './RunProvider';
import { NO_AGENTS } from './runState';
import { InterviewChat, WhisperBox } from './Interventions';
import { headEmoji, minuteLabel } from './format';
import { filterMemories, reflectionTree, type MemoryKind, type ReflectionNode } from './memories';
import { conversationTitle, nameOf, namesById } from './names';
import { PanelSection } from '../components/PanelSection';

/** People on the map, to pick one when none is selected. */
export function PeopleList() {
  const store = useRunStore();
  const agents = useRun((s) => s.frame?.agents ?? NO_AGENTS);
  if (agents.length === 0) return <p className="muted panel__pad">No one is on the map yet.</p>;
  return (
    <ul className="run-people" data-testid="run-people">
      {agents.map((a) => (
        <li key={a.id}>
          <button
            type="button"
            className="run-people__item"
            data-testid="run-person"
            onClick={() => void store.getState().selectAgent(a.id)}
          >
            <span className="run-people__emoji">{a.asleep ? '💤' : headEmoji(a.emoji) || '·'}</span>
            <span className="run-people__name">
              {a.name}
              {a.resident && <span className="chat__tag">you</span>}
            </span>
            <span className="run-people__action">{a.asleep ? 'asleep' : a.action}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export function Inspector() {
  const store = useRunStore();
  const { agent, agentError, selectedAgentId, replaying } = useRun(
    useShallow((s) => ({
      agent: s.agent,
      agentError: s.agentError,
      selectedAgentId: s.selectedAgentId,
      replaying: s.viewStep !== null,
    })),
  );
  if (!selectedAgentId) return <PeopleList />;
  return (
    <div className="inspector" data-testid="inspector">
      <div className="inspector__head">
        <button
          type="button"
          className="link-button"
          data-testid="inspector-back"
          onClick={() => void store.getState().selectAgent(null)}
        >
          ‹ Everyone
        </button>
        {replaying && (
          <span className="muted" title="The inspector shows the person as they are now">
            (as of the live step)
          </span>
        )}
        {agentError && <span className="inspector__error">{agentError}</span>}
      </div>
      {agent ? (
        <AgentSections agent={agent} />
      ) : (
        // With an error (a closed run, a gone agent) there is nothing to wait for.
        !agentError && <p className="muted panel__pad">Loading…</p>
      )}
    </div>
  );
}

function AgentSections({ agent }: { agent: AgentDetail }) {
  const byId = useMemo(() => new Map(agent.memories.map((m) => [m.id, m])), [agent.memories]);
  // People by name, not id: whoever is on the map, whom they know, and themselves.
  const agents = useRun((s) => s.liveFrame?.agents ?? NO_AGENTS);
  const names = useMemo(() => namesById(agents, agent), [agents, agent]);
  return (
    <>
      <div className="inspector__identity" data-testid="inspector-identity">
        <h2 data-testid="inspector-name">
          {headEmoji(agent.frame.emoji)} {agent.name}
          {agent.resident && <span className="chat__tag">you</span>}
        </h2>
        <p className="inspector__now" data-testid="inspector-action">
          {agent.frame.asleep ? 'Asleep' : agent.frame.action}
          {agent.frame.chattingWith && ` · talking with ${nameOf(agent.frame.chattingWith, names)}`}
        </p>
        <p className="muted mono">{agent.location ?? agent.frame.address}</p>
        <details className="inspector__profile">
          <summary>Profile</summary>
          <dl className="facts">
            <dt>Age</dt>
            <dd>{agent.age}</dd>
            <dt>Innate</dt>
            <dd>{agent.innate}</dd>
            <dt>Learned</dt>
            <dd>{agent.learned}</dd>
            <dt>Currently</dt>
            <dd>{agent.currently}</dd>
            <dt>Lifestyle</dt>
            <dd>{agent.lifestyle}</dd>
            <dt>Lives in</dt>
            <dd className="mono">{agent.livingArea}</dd>
          </dl>
        </details>
      </div>
      <PanelSection title="Ask" testId="inspector-interview">
        <InterviewChat agentName={agent.name.split(' ')[0] ?? agent.name} />
      </PanelSection>
      <PanelSection title="Whisper" testId="inspector-whisper" initiallyOpen={false}>
        <WhisperBox agentName={agent.name.split(' ')[0] ?? agent.name} />
      </PanelSection>
      {/* Each badge counts the items its section lists. */}
      <PanelSection title="Day plan" count={agent.dailyPlan.length} testId="inspector-plan">
        {agent.dailyPlan.length === 0 ? (
          <p className="muted">No plan for the day yet: it is made when they wake up.</p>
        ) : (
          <ol className="plan-list">
            {agent.dailyPlan.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ol>
        )}
      </PanelSection>
      <PanelSection
        title="Schedule"
        count={agent.schedule.length}
        testId="inspector-schedule-section"
      >
        {agent.schedule.length === 0 ? (
          <p className="muted">No schedule yet: it is made when they wake up.</p>
        ) : (
          <ul className="schedule" data-testid="inspector-schedule">
            {agent.schedule.map((b, i) => (
              <li key={i} className={b.done ? 'schedule__done' : ''}>
                <span className="mono">{minuteLabel(b.startMinute)}</span>
                <span>{b.asleep ? `💤 ${b.activity}` : b.activity}</span>
                <span className="muted">{b.minutes} min</span>
              </li>
            ))}
          </ul>
        )}
      </PanelSection>
      {agent.tasks.length > 0 && (
        <PanelSection title="This hour" count={agent.tasks.length} testId="inspector-tasks">
          <ul className="schedule">
            {agent.tasks.map((t, i) => (
              <li key={i} className={t.done ? 'schedule__done' : ''}>
                <span className="mono">{minuteLabel(t.startMinute)}</span>
                <span>{t.task}</span>
                <span className="muted">{t.minutes} min</span>
              </li>
            ))}
          </ul>
        </PanelSection>
      )}
      <PanelSection
        title="Why: latest retrievals"
        count={agent.retrievals.length}
        testId="inspector-retrievals"
      >
        {agent.retrievals.length === 0 ? (
          <p className="muted" data-testid="retrievals-empty">
            No memories retrieved yet. {agent.name.split(' ')[0]} retrieves on meeting someone, in a
            conversation, when reflecting or re-planning, and when you ask a question above.
          </p>
        ) : (
          agent.retrievals.slice(0, 5).map((r, i) => (
            <details key={i} className="retrieval" open={i === 0}>
              <summary>
                <span className="mono muted">{r.clock.slice(-5)}</span> {r.query}
              </summary>
              <table className="scores" data-testid="retrieval-scores">
                <thead>
                  <tr>
                    <th>Memory</th>
                    <th title="Recency">rec</th>
                    <th title="Importance">imp</th>
                    <th title="Relevance">rel</th>
                    <th title="Weighted total">total</th>
                  </tr>
                </thead>
                <tbody>
                  {r.results.map((m) => (
                    <tr key={m.id}>
                      <td>{m.description}</td>
                      <td>{m.recency.toFixed(2)}</td>
                      <td>{m.importance.toFixed(2)}</td>
                      <td>{m.relevance.toFixed(2)}</td>
                      <td className="scores__total">{m.total.toFixed(2)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          ))
        )}
      </PanelSection>
      <MemoryStream agent={agent} />
      <PanelSection
        title="Reflections"
        count={agent.memories.filter((m) => m.kind === 'thought' && m.evidence.length).length}
        testId="inspector-reflections"
        initiallyOpen={false}
      >
        <ReflectionTree nodes={reflectionTree(agent.memories)} byId={byId} />
      </PanelSection>
      <PanelSection
        title="Relationships"
        count={agent.relationships.length}
        testId="inspector-relationships"
      >
        {agent.relationships.length === 0 ? (
          <p className="muted">They know no one in town yet.</p>
        ) : (
          <ul className="relations">
            {agent.relationships.map((r) => (
              <li key={r.agentId}>
                <strong>{r.name}</strong>
                <span className="muted">
                  {r.conversations} conversation{r.conversations === 1 ? '' : 's'}
                </span>
                {r.relationship && <span>{r.relationship}</span>}
                {r.feeling && <span className="muted">feels: {r.feeling}</span>}
              </li>
            ))}
          </ul>
        )}
      </PanelSection>
      <PanelSection
        title="Conversations"
        count={agent.conversations.length}
        testId="inspector-conversations"
        initiallyOpen={false}
      >
        {agent.conversations.length === 0 ? (
          <p className="muted">No conversations yet.</p>
        ) : (
          agent.conversations.map((c, i) => (
            <details key={i} className="conversation">
              <summary data-testid="conversation-title">
                {conversationTitle(c.participants, names)} — {c.topic}
              </summary>
              {c.transcript.map((l, j) => (
                <p key={j}>{l}</p>
              ))}
            </details>
          ))
        )}
      </PanelSection>
    </>
  );
}

const KINDS: (MemoryKind | 'all')[] = ['all', 'observation', 'chat', 'thought', 'plan'];

function MemoryStream({ agent }: { agent: AgentDetail }) {
  const [kind, setKind] = useState<MemoryKind | 'all'>('all');
  const [query, setQuery] = useState('');
  const shown = useMemo(
    () => filterMemories(agent.memories, kind, query),
    [agent.memories, kind, query],
  );
  const held = useMemo(
    () =>
      filterMemories(
        agent.heldObservations.map((h) => ({ ...h, kind: 'observation' as const })),
        kind,
        query,
      ),
    [agent.heldObservations, kind, query],
  );
  const total = agent.memories.length + agent.heldObservations.length;
  return (
    <PanelSection title="Memory stream" count={total} testId="inspector-memories">
      <div className="memory-filter">
        <select
          className="select"
          aria-label="Memory type"
          data-testid="memory-kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as MemoryKind | 'all')}
        >
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {k === 'all' ? 'All types' : k}
            </option>
          ))}
        </select>
        <input
          className="input"
          type="search"
          placeholder="Search memories"
          aria-label="Search memories"
          data-testid="memory-search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {shown.length + held.length === 0 ? (
        <p className="muted">{total === 0 ? 'No memories yet.' : 'No memory matches.'}</p>
      ) : (
        <ul className="memories" data-testid="memory-list">
          {held.map((h, i) => (
            <li
              key={`held-${i}`}
              className="memories__item memories__item--held"
              data-testid="memory-held"
            >
              <span
                className="memories__imp memories__imp--held"
                title="Seen, not rated yet: observations are rated a few at a time, and before this person recalls anything"
              >
                …
              </span>
              <span className="memories__kind memories__kind--observation">{h.kind}</span>
              <span className="memories__text">{h.description}</span>
              <span className="memories__time mono">{h.createdClock.slice(-5)}</span>
            </li>
          ))}
          {shown.slice(0, 200).map((m) => (
            <li key={m.id} className="memories__item" data-testid="memory-item">
              <span
                className="memories__imp"
                title={`Importance ${m.importance}`}
                style={{ opacity: 0.35 + Math.min(1, m.importance / 10) * 0.65 }}
              >
                {m.importance}
              </span>
              <span className={`memories__kind memories__kind--${m.kind}`}>{m.kind}</span>
              <span className="memories__text">{m.description}</span>
              <span className="memories__time mono">{m.createdClock.slice(-5)}</span>
            </li>
          ))}
          {shown.length > 200 && <li className="muted">…and {shown.length - 200} older</li>}
        </ul>
      )}
    </PanelSection>
  );
}

function ReflectionTree({
  nodes,
  byId,
}: {
  nodes: ReflectionNode[];
  byId: Map<string, AgentDetail['memories'][number]>;
}) {
  if (nodes.length === 0) return <p className="muted">No reflections yet.</p>;
  return (
    <ul className="reflections">
      {nodes.map((n) => (
        <li key={n.id}>
          <details>
            <summary>
              <span className="memories__kind memories__kind--thought">depth {n.depth}</span>{' '}
              {n.description}
            </summary>
            {n.children.length > 0 ? (
              <ReflectionTree nodes={n.children} byId={byId} />
            ) : (
              <p className="muted">No evidence recorded.</p>
            )}
            {n.missing > 0 && (
              <p className="muted">{n.missing} evidence memories were forgotten.</p>
            )}
          </details>
        </li>
      ))}
    </ul>
  );
}
