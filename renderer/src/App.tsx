import { useEffect, useState } from 'react';
import { studio } from './api/studio';

/** Placeholder shell; the library, canvas and panels replace it. */
export function App() {
  const [info, setInfo] = useState('connecting…');
  useEffect(() => {
    studio.app.info({}).then(
      (i) => setInfo(`${i.transport} ${i.version}`),
      (e: Error) => setInfo(e.message),
    );
  }, []);
  return <div>Simulacra Studio — {info}</div>;
}
