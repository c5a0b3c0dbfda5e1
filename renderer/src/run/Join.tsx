/**
 * "Step into the town": the user joins the live run as a new resident or takes over a person,
 * then walks (arrow keys, or a click on the map) and talks to whoever is near.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Dialog } from '../components/Dialog';
import { FormActions } from '../components/FormActions';
import { LabelledField } from '../components/LabelledField';
import { useRun, useRunStore } from './RunProvider';
import { NO_AGENTS } from './runState';
import { SPRITE_NAMES, SpritePicker } from '../personas/SpritePicker';

/** Tiles within which the user can talk to someone (a conversation needs closeness). */
export const TALK_RADIUS_TILES = 4;

export function JoinDialog({ onClose }: { onClose(): void }) {
  const store = useRunStore();
  const agents = useRun((s) => s.frame?.agents ?? NO_AGENTS);
  const [mode, setMode] = useState<'new' | 'takeover'>('new');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [description, setDescription] = useState('');
  const [sprite, setSprite] = useState(SPRITE_NAMES[0] ?? '');
  const [agentId, setAgentId] = useState(agents[0]?.id ?? '');
  const valid =
    mode === 'new' ? firstName.trim() !== '' && description.trim() !== '' : agentId !== '';
  return (
    <Dialog title="Step into the town" testId="join-dialog" onClose={onClose}>
      <form
        className="join"
        onSubmit={async (e) => {
          e.preventDefault();
          const ok = await store.getState().join(
            mode === 'new'
              ? {
                  mode,
                  firstName: firstName.trim(),
                  lastName: lastName.trim(),
                  description: description.trim(),
                  sprite,
                }
              : { mode, agentId },
          );
          if (ok) onClose();
        }}
      >
        <p className="muted">
          People will see you, remember you and talk about you like anyone else. Walk with the arrow
          keys or by clicking the map; talk to someone within {TALK_RADIUS_TILES} tiles.
        </p>
        <div className="segmented" role="radiogroup" aria-label="How to join">
          <label className="toggle">
            <input type="radio" checked={mode === 'new'} onChange={() => setMode('new')} />
            As a new resident
          </label>
          <label className="toggle">
            <input
              type="radio"
              data-testid="join-takeover"
              checked={mode === 'takeover'}
              onChange={() => setMode('takeover')}
            />
            Take over someone
          </label>
        </div>
        {mode === 'new' ? (
          <>
            <div className="start-run__grid">
              <LabelledField label="First name">
                <input
                  data-testid="join-first-name"
                  value={firstName}
                  maxLength={60}
                  onChange={(e) => setFirstName(e.target.value)}
                />
              </LabelledField>
              <LabelledField label="Last name">
                <input
                  value={lastName}
                  maxLength={60}
                  onChange={(e) => setLastName(e.target.value)}
                />
              </LabelledField>
            </div>
            <LabelledField label="Who you are (one short paragraph)">
              <textarea
                data-testid="join-description"
                rows={3}
                maxLength={2000}
                placeholder="A travelling painter who just arrived in town; curious about the old willow."
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
            </LabelledField>
            <SpritePicker value={sprite} onChange={setSprite} />
          </>
        ) : (
          <LabelledField label="Person">
            <select
              className="select"
              data-testid="join-agent"
              value={agentId}
              onChange={(e) => setAgentId(e.target.value)}
            >
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </LabelledField>
        )}
        <FormActions
          className="dialog__actions"
          onCancel={onClose}
          submitTestId="join-submit"
          disabled={!valid}
        >
          Step in
        </FormActions>
      </form>
    </Dialog>
  );
}

/** The resident's panel: who is near, and a chat with one of them. */
export function ResidentPanel() {
  const store = useRunStore();
  const { resident, agents, pending } = useRun(
    useShallow((s) => ({
      resident: s.resident,
      agents: s.liveFrame?.agents ?? NO_AGENTS,
      pending: s.pending,
    })),
  );
  const [to, setTo] = useState('');
  const [text, setText] = useState('');
  if (!resident) return null;
  const me = agents.find((a) => a.id === resident.agentId);
  const near = me
    ? agents.filter(
        (a) =>
          a.id !== me.id &&
          Math.max(Math.abs(a.x - me.x), Math.abs(a.y - me.y)) <= TALK_RADIUS_TILES,
      )
    : [];
  const target = near.find((a) => a.id === to) ?? near[0];
  return (
    <div className="resident" data-testid="resident-panel">
      <p>
        You are <strong>{me?.name ?? resident.agentId}</strong>
        {me && (
          <span className="muted mono">
            {' '}
            at {me.x},{me.y}
          </span>
        )}
        . Arrow keys walk; a click on the map walks there.
      </p>
      {near.length === 0 ? (
        <p className="muted">No one is close enough to talk to. Walk up to someone.</p>
      ) : (
        <>
          <select
            className="select"
            aria-label="Talk to"
            data-testid="resident-to"
            value={target?.id ?? ''}
            onChange={(e) => setTo(e.target.value)}
          >
            {near.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          <div className="chat__lines">
            {resident.lines.map((l, i) => (
              <div
                key={i}
                className={`chat__line chat__line--${l.from}`}
                data-testid={l.from === 'agent' ? 'resident-reply' : 'resident-line'}
              >
                {l.text}
              </div>
            ))}
          </div>
          <form
            className="whisper__row"
            onSubmit={(e) => {
              e.preventDefault();
              if (target && text.trim()) void store.getState().say(target.id, text);
              setText('');
            }}
          >
            <input
              className="input"
              aria-label="Say"
              data-testid="resident-say"
              placeholder={`Say something to ${target?.name ?? ''}…`}
              value={text}
              maxLength={2000}
              onChange={(e) => setText(e.target.value)}
            />
            <button
              type="submit"
              className="button"
              data-testid="resident-say-send"
              disabled={!text.trim() || !!pending}
            >
              Say
            </button>
          </form>
        </>
      )}
    </div>
  );
}
