/**
 * Ways to poke the world: an object's state (from a click on the map), the interview chat, the
 * inner-voice whisper, and the event panel that lists what was done (from the run's event log).
 */
import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { FormActions } from '../components/FormActions';
import { LabelledField } from '../components/LabelledField';
import { useRun, useRunStore } from './RunProvider';
import { NO_LINES } from './runState';
import { kindLabel } from './names';

export function ObjectStatePopover({
  address,
  at,
  current,
  onClose,
}: {
  address: string;
  at: { x: number; y: number };
  current: string | null;
  onClose(): void;
}) {
  const store = useRunStore();
  const [state, setState] = useState(current ?? '');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!state.trim()) return;
    setBusy(true);
    const ok = await store.getState().setObjectState(address, state);
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <form
      className="popover"
      data-testid="object-popover"
      style={{ left: Math.max(8, at.x - 140), top: at.y + 12 }}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <div className="popover__title" title={address}>
        {address.split(':').slice(-2).join(' › ')}
      </div>
      <LabelledField label={<>State {current ? `(now “${current}”)` : '(default)'}</>}>
        <input
          autoFocus
          className="input"
          data-testid="object-state-input"
          placeholder="e.g. burning, out of order, being cleaned"
          value={state}
          maxLength={200}
          onChange={(e) => setState(e.target.value)}
        />
      </LabelledField>
      <FormActions
        className="popover__actions"
        onCancel={onClose}
        submitTestId="object-state-apply"
        disabled={busy || !state.trim()}
      >
        Set state
      </FormActions>
    </form>
  );
}

export function InterviewChat({ agentName }: { agentName: string }) {
  const store = useRunStore();
  const { lines, pending } = useRun(
    useShallow((s) => ({ lines: s.interview?.lines ?? NO_LINES, pending: s.pending })),
  );
  const [question, setQuestion] = useState('');
  const [remember, setRemember] = useState(false);
  const linesRef = useRef<HTMLDivElement>(null);
  // Scroll the chat itself to its newest line (scrollIntoView would scroll the panel too).
  useEffect(() => {
    const el = linesRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines.length]);
  const send = () => {
    if (!question.trim() || pending) return;
    void store.getState().ask(question, remember);
    setQuestion('');
  };
  return (
    <div className="chat" data-testid="interview">
      <div className="chat__lines" data-testid="interview-lines" ref={linesRef}>
        {lines.length === 0 && (
          <p className="muted">
            Ask {agentName} anything. They answer as themselves, from their memories; time does not
            move.
          </p>
        )}
        {lines.map((l, i) => (
          <div
            key={i}
            className={`chat__line chat__line--${l.from}`}
            data-testid={l.from === 'agent' ? 'interview-answer' : 'interview-question'}
          >
            {l.text}
            {l.remembered && <span className="chat__tag">remembered</span>}
          </div>
        ))}
      </div>
      <div className="chat__input">
        <textarea
          className="input"
          rows={2}
          placeholder={`Ask ${agentName}…`}
          aria-label="Interview question"
          data-testid="interview-input"
          value={question}
          maxLength={2000}
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              send();
            }
          }}
        />
        <div className="chat__actions">
          <label
            className="toggle"
            title="Keep the question and answer in their memory stream (logged)"
          >
            <input
              type="checkbox"
              data-testid="interview-remember"
              checked={remember}
              onChange={(e) => setRemember(e.target.checked)}
            />
            Remember this
          </label>
          <button
            type="button"
            className="button button--primary"
            data-testid="interview-send"
            disabled={!question.trim() || !!pending}
            onClick={send}
          >
            Ask
          </button>
        </div>
      </div>
    </div>
  );
}

export function WhisperBox({ agentName }: { agentName: string }) {
  const store = useRunStore();
  const [text, setText] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  return (
    <form
      className="whisper"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await store.getState().whisper(text)) {
          setSent(text.trim());
          setText('');
        }
      }}
    >
      <p className="muted">
        An inner voice: {agentName} will take it as their own thought (e.g. “You want to throw a
        Valentine’s party at 5 pm”).
      </p>
      <div className="whisper__row">
        <input
          className="input"
          aria-label="Whisper"
          data-testid="whisper-input"
          placeholder="You feel like…"
          value={text}
          maxLength={2000}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="button" data-testid="whisper-send" disabled={!text.trim()}>
          Whisper
        </button>
      </div>
      {sent && <p className="muted">Whispered: “{sent}”</p>}
    </form>
  );
}

export function EventPanel() {
  const store = useRunStore();
  const events = useRun((s) => s.events);
  const runId = useRun((s) => s.runId);
  useEffect(() => {
    if (runId) void store.getState().loadEvents();
  }, [store, runId]);
  if (!runId) return <p className="muted">No run is open.</p>;
  return (
    <div className="event-panel">
      {events.length === 0 ? (
        <p className="muted" data-testid="events-empty">
          Nothing done to this run yet. Interviews you keep, whispers, object changes and failures
          show up here, with the step they happened at.
        </p>
      ) : (
        <ol className="event-list" data-testid="event-list">
          {[...events].reverse().map((e, i) => (
            <li
              key={`${e.step}-${i}`}
              className={`event-list__item ${e.ok ? '' : 'event-list__item--bad'}`}
              data-testid="event-item"
            >
              <span className="event-list__step">#{e.step}</span>
              <span className="event-list__kind">{kindLabel(e.kind)}</span>
              <span className="event-list__text">{e.text}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
