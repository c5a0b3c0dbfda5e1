/**
 * The open scenario as React should see it: updated at most once a frame, and not at all
 * while a gesture is open (a stroke's cells reach the screen through chunk bitmaps instead),
 * so O(map) derived views — outlines, labels, tints — are rebuilt once per edit, never per
 * pointer move.
 */
import { useEffect, useState } from 'react';
import type { Scenario } from '../../../common/scenario/schema';
import type { MapEditor } from '../editor/MapEditor';
import type { StudioStore } from '../stores/studioStore';

export function useSettledDoc(store: StudioStore, editor: MapEditor): Scenario | null {
  const [doc, setDoc] = useState(() => store.getState().doc);
  useEffect(() => {
    let frame = 0;
    const sync = () => {
      frame = 0;
      if (!editor.isInGesture()) setDoc(store.getState().doc);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(sync);
    };
    const offDoc = store.subscribe((s, p) => {
      if (s.doc !== p.doc) schedule();
    });
    // A gesture ends with a path change (painting → idle): settle then.
    const offUi = editor.ui.subscribe((s, p) => {
      if (s.path !== p.path) schedule();
    });
    schedule();
    return () => {
      offDoc();
      offUi();
      cancelAnimationFrame(frame);
    };
  }, [store, editor]);
  return doc;
}
