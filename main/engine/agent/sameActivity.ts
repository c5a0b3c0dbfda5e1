/**
 * When two plan items are "the same activity in other words" for the lifestyle policy and the
 * varied-schedule guard: their embeddings are within the embedder's calibrated threshold
 * (costLayerCalibration.ts), and they do not name two different meals.
 *
 * Why meals apart from the threshold: all-MiniLM-L6-v2 scores a meal at another hour as a
 * paraphrase ("make toast and eat breakfast" / "make toast and eat lunch" 0.905, "cook soup and
 * eat breakfast" / "… lunch" 0.890), above the threshold its labelled pairs give (0.863), so a
 * lunch block replayed the breakfast decomposition. SmolLM2-135M's decompositions name their
 * meal ("make breakfast", "cook breakfast at the cafe", "make the breakfast and eat": Willow
 * Bend, three seeds each, session 35), so the replay put breakfast tasks into a lunch block.
 * Labelled "different" in the calibration set, those pairs would raise the threshold to about
 * 0.915, where MiniLM matches 1% of paraphrases: the policy would almost never reuse. So the
 * meal is read from the words, the rest of the activity from the embedding; the calibration
 * derives the threshold with this rule applied (calibration/derive.ts).
 */

/** The meal words, each with the meal it names. */
const MEAL_WORDS: Readonly<Record<string, string>> = {
  breakfast: 'breakfast',
  breakfasts: 'breakfast',
  brunch: 'brunch',
  lunch: 'lunch',
  lunches: 'lunch',
  luncheon: 'lunch',
  lunchtime: 'lunch',
  dinner: 'dinner',
  dinners: 'dinner',
  supper: 'supper',
  suppers: 'supper',
};

/** The meals a text names, by word ("tea" is left out: it is as often a drink as a meal). */
export function mealsNamed(text: string): Set<string> {
  const meals = new Set<string>();
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const meal = MEAL_WORDS[word];
    if (meal) meals.add(meal);
  }
  return meals;
}

/**
 * Whether both texts name a meal and the meals differ: "eat breakfast at home" / "eat lunch at
 * home". A text naming none ("have the morning meal", "watch TV") conflicts with nothing.
 */
export function namesAnotherMeal(a: string, b: string): boolean {
  const first = mealsNamed(a);
  const second = mealsNamed(b);
  if (first.size === 0 || second.size === 0) return false;
  if (first.size !== second.size) return true;
  for (const meal of first) if (!second.has(meal)) return true;
  return false;
}

/** Whether plan items `a` and `b`, of cosine `similarity`, are one activity at `threshold`. */
export function sameActivity(a: string, b: string, similarity: number, threshold: number): boolean {
  return similarity >= threshold && !namesAnotherMeal(a, b);
}
