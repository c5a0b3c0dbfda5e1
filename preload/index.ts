import { contextBridge, ipcRenderer } from 'electron';
import { CALL_CHANNEL, EVENT_CHANNEL, type StudioBridge } from './bridge';

const bridge: StudioBridge = {
  call: (method, input) => ipcRenderer.invoke(CALL_CHANNEL, String(method), input),
  on(event, listener) {
    const wrapped = (_e: unknown, name: unknown, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
  },
};

contextBridge.exposeInMainWorld('studio', bridge);
