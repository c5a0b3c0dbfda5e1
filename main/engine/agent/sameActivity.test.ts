import { describe, expect, it } from 'vitest';
import { mealsNamed, namesAnotherMeal, sameActivity } from './sameActivity';

describe('telling a meal from another meal', () => {
  it('reads the meals a plan item names, in any form of the word', () => {
    expect([...mealsNamed('Bake and eat Breakfast at 5:00')]).toEqual(['breakfast']);
    expect([...mealsNamed('pack the children’s lunches at lunchtime')]).toEqual(['lunch']);
    expect([...mealsNamed('make tea and read the paper')]).toEqual([]);
  });

  it('parts two meals, and nothing that names no meal', () => {
    expect(namesAnotherMeal('make toast and eat breakfast', 'make toast and eat lunch')).toBe(true);
    expect(namesAnotherMeal('eat breakfast', 'have breakfast and then lunch')).toBe(true);
    expect(namesAnotherMeal('eat breakfast at home', 'have breakfast in the kitchen')).toBe(false);
    // The morning meal in other words, or an evening named by its meal: no conflict.
    expect(namesAnotherMeal('eat breakfast', 'have the morning meal')).toBe(false);
    expect(namesAnotherMeal('watch television in the evening', 'watch TV after dinner')).toBe(
      false,
    );
  });

  it('is one activity only at the threshold and for one meal', () => {
    expect(sameActivity('eat lunch at home', 'have lunch at home', 0.9, 0.863)).toBe(true);
    expect(sameActivity('eat lunch at home', 'have lunch at home', 0.85, 0.863)).toBe(false);
    expect(sameActivity('eat lunch at home', 'eat dinner at home', 0.95, 0.863)).toBe(false);
  });
});
