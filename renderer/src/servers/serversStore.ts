/**
 * What the window knows of Settings' model servers, shared by every place that names or offers
 * them (the start, fork and Lab forms, the run library, the Lab's lists, the status bar): the
 * list, which have a key saved, and what each answered when asked for its models. It is read
 * once and replaced whenever Settings saves, so a server added from the start dialog's empty
 * state is offered there as soon as Settings closes. Also which part of Settings to open, so
 * those forms can send the user straight to "Model servers".
 */
import { useEffect } from 'react';
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { SettingsState } from '../../../common/api/settings';
import { describeModelRef, type ModelServer, type ServerProbe } from '../../../common/api/servers';
import { studio } from '../api/studio';

/** What a server answered to "which models do you have?" (servers.test). */
export type ModelsAnswer =
  { state: 'loading' } | { state: 'ok'; probe: ServerProbe } | { state: 'error'; message: string };

export type SettingsSection = 'servers';

export interface ServersState {
  servers: ModelServer[];
  /** Ids of the servers with an API key saved. */
  withKey: string[];
  loaded: boolean;
  /** Why Settings could not be read, if it could not. */
  error: string | null;
  /** Answers by server id and address (a changed address asks again). */
  answers: Record<string, ModelsAnswer>;
  /** Settings is open (null: closed); the section it scrolls to, if one. */
  settings: { section: SettingsSection | null } | null;
}

export const serversStore = createStore<ServersState>()(() => ({
  servers: [],
  withKey: [],
  loaded: false,
  error: null,
  answers: {},
  settings: null,
}));

export function useServers<T>(selector: (s: ServersState) => T): T {
  return useStore(serversStore, selector);
}

let reading: Promise<void> | null = null;

/** Reads Settings' list once (again with `force`); failures are kept in `error`. */
export function loadServers(force = false): Promise<void> {
  if (reading && !force) return reading;
  reading = studio.settings.get({}).then(
    (state) => applySettingsState(state),
    (err: Error) => serversStore.setState({ loaded: true, error: err.message }),
  );
  return reading;
}

/** Takes the list from a settings.get / settings.set answer. */
export function applySettingsState(state: SettingsState): void {
  serversStore.setState({
    servers: state.settings.modelServers,
    withKey: state.serversWithKey,
    loaded: true,
    error: null,
  });
}

const answerKey = (server: ModelServer) => `${server.id} ${server.baseUrl}`;

/** What `server` answered (undefined: not asked yet). */
export function answerFor(s: ServersState, server: ModelServer | undefined) {
  return server ? s.answers[answerKey(server)] : undefined;
}

/**
 * Asks `server` for its models (servers.test with its saved key), once per address unless
 * `again`; the answer, or the error message naming the address, lands in `answers`.
 */
export async function askModels(server: ModelServer, again = false): Promise<void> {
  const key = answerKey(server);
  const known = serversStore.getState().answers[key];
  if (known && !again && known.state !== 'error') return;
  const put = (answer: ModelsAnswer) =>
    serversStore.setState((s) => ({ answers: { ...s.answers, [key]: answer } }));
  put({ state: 'loading' });
  try {
    const probe = await studio.servers.test({ baseUrl: server.baseUrl, serverId: server.id });
    put({ state: 'ok', probe });
  } catch (err) {
    put({ state: 'error', message: (err as Error).message });
  }
}

export function openSettings(section: SettingsSection | null = null): void {
  serversStore.setState({ settings: { section } });
}

export function closeSettings(): void {
  serversStore.setState({ settings: null });
}

/**
 * Names a run's recorded model ("SmolLM2 on Lab box (127.0.0.1:8080)", or a file's name),
 * reading Settings' list the first time it is needed.
 */
export function useDescribeModel(): (ref: string) => string {
  const servers = useServers((s) => s.servers);
  useEffect(() => {
    void loadServers();
  }, []);
  return (ref: string) => describeModelRef(ref, servers);
}
