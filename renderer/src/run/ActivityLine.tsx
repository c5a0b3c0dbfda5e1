/**
 * The run view's progress line (issue 25), between the map and the status bar: while the live
 * run works it says what the model is doing and for whom ("Agnes: planning the day · about 40 s
 * left · 2 of 3 planned"), a Step's progress, and the user's requests waiting their turn — so a
 * long model call reads as work, not as a hang.
 */
import { useRun } from './RunProvider';
import { activityParts } from './activity';
import { isLive } from './runState';

export function ActivityLine() {
  const activity = useRun((s) => s.activity);
  const live = useRun((s) => isLive(s.summary));
  const following = useRun((s) => s.viewStep === null);
  if (!live || !following || !activity) return null;
  const parts = activityParts(activity);
  if (parts.length === 0) return null;
  const text = parts.join(' · ');
  return (
    <div
      className="run-activity"
      data-testid="run-activity"
      data-planned={`${activity.planned.done}/${activity.planned.of}`}
      role="status"
      aria-live="polite"
      title={text}
    >
      <span className="run-activity__pulse" aria-hidden />
      <span className="run-activity__text">{text}</span>
    </div>
  );
}
