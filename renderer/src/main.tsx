/**
 * Renderer entry: opens the library database, builds the studio store over the real
 * StudioApi client, binds autosave to the page lifecycle, and mounts the shell.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { studio } from './api/studio';
import { LibraryDb } from './library/db';
import { ScenarioRepository } from './library/repository';
import { bindPageLifecycle, storageJournal } from './library/autosave';
import { createStudioStore, StudioContext } from './stores/studioStore';
import './styles.css';

const store = createStudioStore({
  repo: new ScenarioRepository(new LibraryDb()),
  api: studio,
  journal: storageJournal(window.localStorage),
});
bindPageLifecycle(store.autosaver);
void store.getState().init();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StudioContext.Provider value={store}>
      <App />
    </StudioContext.Provider>
  </StrictMode>,
);
