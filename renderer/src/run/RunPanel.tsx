/** The right panel in the run view: the person inspector, the event log, or the charts. */
import { useState } from 'react';
import { useRun } from './RunProvider';
import { Inspector } from './Inspector';
import { EventPanel } from './Interventions';
import { ChartsPanel } from './Charts';
import { ResidentPanel } from './Join';

type Tab = 'people' | 'events' | 'charts';
const TABS: { id: Tab; label: string }[] = [
  { id: 'people', label: 'People' },
  { id: 'events', label: 'Event log' },
  { id: 'charts', label: 'Charts' },
];

export function RunPanel() {
  const [tab, setTab] = useState<Tab>('people');
  const runId = useRun((s) => s.runId);
  const resident = useRun((s) => s.resident !== null);
  return (
    <aside className="panel run-panel" aria-label="Run details" data-testid="run-panel">
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className={`tabs__tab ${tab === t.id ? 'tabs__tab--on' : ''}`}
            data-testid={`run-tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {!runId ? (
        <p className="muted panel__pad">
          Start a run, or pick one from the sidebar, to see its people, events and charts here.
        </p>
      ) : (
        <div className="run-panel__body">
          {resident && <ResidentPanel />}
          {tab === 'people' && <Inspector />}
          {tab === 'events' && <EventPanel />}
          {tab === 'charts' && <ChartsPanel />}
        </div>
      )}
    </aside>
  );
}
