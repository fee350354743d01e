// The answers a chart page asks for, in one request: for each event charted (at most MAX_EVENTS) the
// chart of the range and of the period just before it, the slots of events not charted left out.
import type { VariablesOf } from 'gql.tada';
import { graphql, ResultOf } from '../../graphql';
import type { LabelledSeries } from './events-chart';
import type { Answered } from './totals';
import { chartInput, MAX_EVENTS, previousDates, Question } from './question';

export const CHART_ANSWERS = graphql(`
  query ChartAnswers(
    $e0: ChartInput!
    $p0: ChartInput!
    $e1: ChartInput!
    $p1: ChartInput!
    $e2: ChartInput!
    $p2: ChartInput!
    $e3: ChartInput!
    $p3: ChartInput!
    $e4: ChartInput!
    $p4: ChartInput!
    $has1: Boolean!
    $has2: Boolean!
    $has3: Boolean!
    $has4: Boolean!
  ) {
    e0: chart(input: $e0) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    p0: chart(input: $p0) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    e1: chart(input: $e1) @include(if: $has1) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    p1: chart(input: $p1) @include(if: $has1) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    e2: chart(input: $e2) @include(if: $has2) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    p2: chart(input: $p2) @include(if: $has2) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    e3: chart(input: $e3) @include(if: $has3) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    p3: chart(input: $p3) @include(if: $has3) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    e4: chart(input: $e4) @include(if: $has4) {
      series {
        key
        points {
          at
          value
        }
      }
    }
    p4: chart(input: $p4) @include(if: $has4) {
      series {
        key
        points {
          at
          value
        }
      }
    }
  }
`);

type Answers = ResultOf<typeof CHART_ANSWERS>;
type Slot = 0 | 1 | 2 | 3 | 4;
const SLOTS: Slot[] = [0, 1, 2, 3, 4];

/** Every slot's variables: an event's input, or the first's where none (left out by its has flag). */
export function chartVariables(question: Question) {
  const previous = previousDates(question);
  const vars: Record<string, unknown> = {};
  for (const i of SLOTS.slice(0, MAX_EVENTS)) {
    const event = question.events[i] ?? question.events[0];
    vars[`e${i}`] = chartInput(question, event);
    vars[`p${i}`] = chartInput(question, event, previous);
    if (i > 0) vars[`has${i}`] = i < question.events.length;
  }
  return vars as VariablesOf<typeof CHART_ANSWERS>;
}

export function answersOf(question: Question, data: Answers): Answered[] {
  return question.events.map((event, i) => {
    const slot = i as Slot;
    return {
      event,
      current: data[`e${slot}`]?.series ?? [],
      previous: data[`p${slot}`]?.series ?? [],
    };
  });
}

/** A line per event, or per event and first-touch value with a breakdown. */
export function labelledSeries(answers: Answered[], breakdown: string): LabelledSeries[] {
  return answers.flatMap((answer) =>
    answer.current.map((s) => ({
      label: breakdown ? `${answer.event}: ${s.key}` : answer.event,
      points: s.points,
    })),
  );
}
