/**
 * The run store's actions about people: selecting one and keeping the inspector current (at most
 * once a second while the run steps), the interview, whispers and object states (interventions),
 * and the user's own resident (join, walk, talk, leave). Part of createRunStore (runStore.ts).
 */
import type { InterventionRequest } from '../../../common/api/runs';
import { errorMessage } from '../util/reportFailures';
import { kindLabel } from './names';
import {
  CLOSED_RUN_NOTE,
  isLive,
  type ChatLine,
  type RunState,
  type RunStoreContext,
} from './runState';

/** Least real time between two inspector refreshes while a run steps, ms. */
export const AGENT_REFRESH_MS = 1000;

export type AgentActions = Pick<
  RunState,
  | 'selectAgent'
  | 'setFollow'
  | 'refreshAgent'
  | 'ask'
  | 'whisper'
  | 'setObjectState'
  | 'join'
  | 'moveResident'
  | 'nudgeResident'
  | 'say'
  | 'leave'
>;

/**
 * The actions, plus `scheduleRefresh` (a stepping run asks for the selected person again, no
 * more than once per AGENT_REFRESH_MS) and `dispose` (drops a pending refresh).
 */
export function agentActions({ set, get, deps, guarded }: RunStoreContext): {
  actions: AgentActions;
  scheduleRefresh(): void;
  dispose(): void;
} {
  const { api } = deps;
  let agentSeq = 0;
  let lastAgentRefresh = 0;
  let agentRefreshTimer: ReturnType<typeof setTimeout> | null = null;

  function runIdOrThrow(): string {
    const id = get().runId;
    if (!id) throw new Error('No run is open.');
    return id;
  }

  const actions: AgentActions = {
    async selectAgent(agentId) {
      set({
        selectedAgentId: agentId,
        agent: null,
        agentError: null,
        interview: agentId ? { agentId, lines: [] } : null,
      });
      if (agentId) await get().refreshAgent();
    },

    setFollow(follow) {
      set({ follow });
    },

    async refreshAgent() {
      const { runId, selectedAgentId, summary } = get();
      if (!runId || !selectedAgentId) return;
      if (!isLive(summary)) {
        // The inspector reads the loaded simulation; a closed run has none.
        set({ agent: null, agentError: CLOSED_RUN_NOTE });
        return;
      }
      lastAgentRefresh = Date.now();
      const seq = ++agentSeq;
      try {
        const agent = await api.runs.agent({ runId, agentId: selectedAgentId });
        if (seq === agentSeq && get().selectedAgentId === selectedAgentId)
          set({ agent, agentError: null });
      } catch (err) {
        if (seq === agentSeq) set({ agentError: errorMessage(err) });
      }
    },

    async ask(question, remember) {
      const { runId, interview } = get();
      if (!runId || !interview || !question.trim()) return;
      const agentId = interview.agentId;
      const push = (line: ChatLine) =>
        set((s) =>
          s.interview?.agentId === agentId
            ? { interview: { agentId, lines: [...s.interview.lines, line] } }
            : {},
        );
      push({ from: 'user', text: question.trim(), remembered: remember });
      set({ pending: 'Waiting for an answer…' });
      try {
        const res = await guarded('The interview failed', () =>
          api.runs.interview({ runId, agentId, question: question.trim(), remember }),
        );
        if (res) push({ from: 'agent', text: res.answer });
      } finally {
        set({ pending: null });
      }
      // Every interview shows its retrieval in the inspector; a remembered one is also an event.
      if (remember) void get().loadEvents();
      void get().refreshAgent();
    },

    async whisper(text) {
      const agentId = get().selectedAgentId;
      if (!agentId || !text.trim()) return false;
      return intervene({ name: 'whisper', args: { agentId, text: text.trim() } });
    },

    async setObjectState(address, state) {
      if (!state.trim()) return false;
      return intervene({ name: 'setObjectState', args: { address, state: state.trim() } });
    },

    async join(as) {
      const runId = get().runId;
      if (!runId) return false;
      const res = await guarded('Could not join the town', () =>
        api.runs.join({
          runId,
          as: as.mode === 'new' ? { ...as, lastName: as.lastName ?? '' } : as,
        }),
      );
      if (!res) return false;
      set({ resident: { agentId: res.agentId, lines: [] } });
      const frame = await api.runs.frame({ runId }).catch(() => null);
      if (frame && get().runId === runId && get().viewStep === null)
        set({ liveFrame: frame, frame });
      return true;
    },

    async moveResident(x, y) {
      const { runId, resident } = get();
      if (!runId || !resident) return;
      const res = await guarded('Could not walk there', () =>
        api.runs.moveResident({ runId, agentId: resident.agentId, x, y }),
      );
      if (res && !res.reachable) deps.showToast('That spot cannot be reached from here.');
    },

    async nudgeResident(dx, dy) {
      const { resident, liveFrame } = get();
      const me = liveFrame?.agents.find((a) => a.id === resident?.agentId);
      if (!me) return;
      await get().moveResident(Math.max(0, me.x + dx), Math.max(0, me.y + dy));
    },

    async say(toAgentId, text) {
      const { runId, resident } = get();
      if (!runId || !resident || !text.trim()) return;
      const agentId = resident.agentId;
      const push = (line: ChatLine) =>
        set((s) =>
          s.resident?.agentId === agentId
            ? { resident: { agentId, lines: [...s.resident.lines, line] } }
            : {},
        );
      push({ from: 'user', text: text.trim() });
      set({ pending: 'Waiting for a reply…' });
      try {
        const res = await guarded('They did not answer', () =>
          api.runs.say({ runId, agentId, toAgentId, text: text.trim() }),
        );
        if (res) push({ from: 'agent', text: res.reply });
      } finally {
        set({ pending: null });
      }
    },

    async leave() {
      const { runId, resident } = get();
      if (!runId || !resident) return;
      await guarded('Could not leave the town', () =>
        api.runs.leave({ runId, agentId: resident.agentId }),
      );
      set({ resident: null });
    },
  };

  async function intervene(intervention: InterventionRequest): Promise<boolean> {
    const runId = runIdOrThrow();
    const what = kindLabel(intervention.name);
    const res = await guarded(`Could not apply “${what}”`, () =>
      api.runs.intervene({ runId, intervention }),
    );
    if (!res) return false;
    if (!res.ok) {
      deps.reportError(`“${what}” was refused`, { message: res.error ?? '' });
      return false;
    }
    void get().loadEvents();
    if (intervention.name === 'setObjectState') {
      const frame = await api.runs.frame({ runId }).catch(() => null);
      if (frame && get().runId === runId)
        set((s) => ({ liveFrame: frame, frame: s.viewStep === null ? frame : s.frame }));
    } else void get().refreshAgent();
    return true;
  }

  function scheduleRefresh() {
    if (!get().selectedAgentId || agentRefreshTimer) return;
    const wait = Math.max(0, lastAgentRefresh + AGENT_REFRESH_MS - Date.now());
    agentRefreshTimer = setTimeout(() => {
      agentRefreshTimer = null;
      void get().refreshAgent();
    }, wait);
  }

  return {
    actions,
    scheduleRefresh,
    dispose() {
      if (agentRefreshTimer) clearTimeout(agentRefreshTimer);
      agentRefreshTimer = null;
    },
  };
}
