/**
 * The built-in "Harrow Quay" template: an 88 × 60 harbour town with twelve homes, a college,
 * a town hall, a pharmacy, a grocer, a bookshop, a pottery, a pub, a park, allotments and the
 * quay, and twenty-five residents. Their seeds carry the ingredients of the Generative Agents
 * social experiments — a party to spread, an election to talk about, families, coworkers,
 * strangers who know nobody, and a crush — in original writing of this project.
 *
 * Run `npx tsx scripts/templates/twenty-five-person-town.ts` to (re)write templates/harrow-quay/
 * and its gallery thumbnail. Deterministic; twenty-five-person-town.test.ts checks both.
 */
import { writeTemplateFolder } from './write-template';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_ATTENTION_BANDWIDTH,
  DEFAULT_RETENTION,
  DEFAULT_RETRIEVAL_WEIGHTS,
  DEFAULT_VISION_RADIUS,
  SCHEMA_VERSION,
  settingsSchema,
  type Persona,
  type Scenario,
  type Sector,
} from '../../common/scenario/schema';
import { splitScenario } from '../../common/scenario/split';
import { TownBuilder, cellsOf, rect } from './TownBuilder';
import { buildHouse, buildVenue, type HouseResult } from './town-kit';
import { RESIDENTS } from './harrow-quay-residents';
import { renderThumbnail, thumbnailPath } from './thumbnail';

export const TEMPLATE_ID = 'harrow-quay';
export const WORLD = 'Harrow Quay';
const WIDTH = 88;
const HEIGHT = 60;

/** The ids of the two residents the social experiments revolve around. */
export const PARTY_HOST = 'ottilie-marsh';
export const CANDIDATE = 'cedric-holloway';

const addr = (...parts: string[]) => [WORLD, ...parts].join(':');

interface Town {
  builder: TownBuilder;
  homes: Record<string, HouseResult>;
  publicSectors: Sector[];
}

const bed = (name: string, who: string, floor: 'woodFloor' | 'carpetRed' | 'carpetBlue') => ({
  name,
  description: `${who}'s bedroom.`,
  floor,
});

function buildTown(): Town {
  const b = new TownBuilder(WORLD, WIDTH, HEIGHT, 11);
  b.fill(rect(0, 0, WIDTH - 1, HEIGHT - 1), 'grass');
  for (let x = 0; x < WIDTH; x++) b.place('tree', [x, 0]);
  for (let y = 0; y < 55; y++) b.place('tree', [0, y], [WIDTH - 1, y]);

  // ---- Streets: three east–west streets, lanes between them, the quay and the harbour.
  for (const y of [12, 25, 38]) b.fill(rect(1, y, WIDTH - 2, y + 1), 'dirt');
  b.fill(rect(30, 12, 31, 38), 'dirt').fill(rect(56, 12, 57, 38), 'dirt');
  b.fill(rect(34, 38, 35, 51), 'dirt').fill(rect(71, 38, 72, 51), 'dirt');
  b.fill(rect(1, 51, WIDTH - 2, 54), 'cobble');
  b.fill(rect(0, 55, WIDTH - 1, HEIGHT - 1), 'water');
  for (const x of [6, 20, 40, 50, 64, 80]) b.place('lamp', [x, 24], [x, 37]);

  const publicSectors: Sector[] = [];

  // ---- Row A: Saltmarsh College, Gull Park, the Fellows' House, Quarrie Cottage.
  publicSectors.push(
    buildVenue(
      b,
      rect(2, 1, 29, 11),
      'south',
      'Saltmarsh College',
      'A small maritime college of grey stone: lectures, a laboratory and a library.',
      [
        {
          name: 'lecture hall',
          description: 'Rows of desks facing a chalkboard.',
          width: 9,
          floor: 'woodFloor',
          frontDoor: true,
          objects: [
            ['lectern', 'The lecturer’s desk.', 'idle', 'desk', [4, 0]],
            [
              'student desks',
              'Scratched desks in rows.',
              'idle',
              'desk',
              [1, 3],
              [2, 3],
              [6, 3],
              [7, 3],
              [1, 5],
              [2, 5],
              [6, 5],
              [7, 5],
            ],
          ],
        },
        {
          name: 'laboratory',
          description: 'A laboratory of sinks, tanks of seawater and microscopes.',
          width: 8,
          floor: 'tileFloor',
          frontDoor: false,
          objects: [
            [
              'lab bench',
              'A long bench with microscopes.',
              'idle',
              'counter',
              [1, 1],
              [2, 1],
              [3, 1],
              [4, 1],
            ],
            ['specimen tanks', 'Tanks of crabs and anemones.', 'idle', 'counter', [7, 4], [7, 5]],
            ['fume cupboard', 'A glass-fronted cupboard for experiments.', 'off', 'stove', [0, 7]],
          ],
        },
        {
          name: 'library',
          description: 'A quiet carpeted library with charts of the coast.',
          width: 7,
          floor: 'carpetRed',
          frontDoor: true,
          objects: [
            [
              'bookshelves',
              'Shelves of books and tide tables.',
              'idle',
              'bookshelf',
              [0, 0],
              [1, 0],
              [2, 0],
              [4, 0],
              [5, 0],
              [6, 0],
            ],
            ['reading table', 'Long tables with lamps.', 'idle', 'table', [2, 3], [3, 3], [4, 3]],
            ['reading sofa', 'A worn sofa by the window.', 'idle', 'sofa', [5, 6], [6, 6]],
          ],
        },
      ],
    ).sector,
  );

  const park = b.sector(
    'Gull Park',
    'A green park with a boating pond, a playground and benches looking out to sea.',
    rect(32, 1, 55, 11),
  );
  b.fill(rect(38, 3, 45, 7), 'water').fill(rect(37, 4, 37, 6), 'water');
  b.fill(rect(48, 2, 54, 10), 'sand');
  const pond = b.arena(park, 'pond side', 'Grass around the boating pond.', rect(32, 1, 46, 11));
  b.object(pond, 'pond bench', 'A bench facing the pond.', 'idle', 'bench', [40, 9]);
  b.object(
    pond,
    'boat jetty',
    'A little jetty where children sail toy boats.',
    'idle',
    null,
    [42, 8],
  );
  b.place('tree', [33, 2], [34, 9], [46, 2], [36, 10]);
  b.place('flowerBed', [33, 5], [33, 6], [44, 10], [45, 10]);
  const play = b.arena(park, 'playground', 'A sandy playground with swings.', rect(47, 1, 55, 11));
  b.object(play, 'swings', 'Two swings on a red frame.', 'idle', 'bench', [50, 4], [51, 4]);
  b.object(
    play,
    'picnic table',
    'A picnic table near the swings.',
    'idle',
    'table',
    [52, 8],
    [53, 8],
  );
  b.place('tree', [55, 2], [55, 10]);
  publicSectors.push(park);

  const homes: Record<string, HouseResult> = {};
  homes.fellows = buildHouse(
    b,
    59,
    2,
    'south',
    "Fellows' House",
    'A college house where three staff members rent rooms.',
    [
      bed("Imogen's room", 'Imogen', 'carpetRed'),
      bed("Theo's room", 'Theo', 'woodFloor'),
      bed("Oskar's room", 'Oskar', 'carpetBlue'),
    ],
  );
  homes.quarrie = buildHouse(
    b,
    77,
    2,
    'south',
    'Quarrie Cottage',
    'A whitewashed cottage at the end of the lane, curtains usually drawn.',
    [bed('bedroom', 'Silas', 'woodFloor')],
  );

  // ---- Row B: civic buildings and shops facing the north street.
  const rowB = (x0: number, x1: number) => rect(x0, 14, x1, 24);
  publicSectors.push(
    buildVenue(
      b,
      rowB(2, 14),
      'north',
      'Town Hall',
      'The town hall: council chamber and the clerk’s office.',
      [
        {
          name: 'council chamber',
          description: 'A panelled chamber where the council meets and the public may watch.',
          width: 6,
          floor: 'carpetBlue',
          frontDoor: true,
          objects: [
            [
              'council table',
              'A long table for the councillors.',
              'idle',
              'table',
              [1, 4],
              [2, 4],
              [3, 4],
              [4, 4],
            ],
            [
              'public benches',
              'Benches for anyone who comes to listen.',
              'idle',
              'bench',
              [1, 7],
              [2, 7],
              [3, 7],
              [4, 7],
            ],
            ['notice board', 'Notices of meetings and the election.', 'idle', null, [0, 1]],
          ],
        },
        {
          name: "clerk's office",
          description: 'Filing cabinets, forms and a kettle.',
          width: 4,
          floor: 'woodFloor',
          frontDoor: true,
          objects: [
            ['clerk desk', 'A desk under piles of forms.', 'idle', 'desk', [1, 3]],
            ['filing shelves', 'Shelves of town records.', 'idle', 'bookshelf', [3, 8], [2, 8]],
          ],
        },
      ],
    ).sector,
    buildVenue(
      b,
      rowB(16, 28),
      'north',
      'Holloway Pharmacy',
      'The town’s pharmacy, run by the Holloway family for two generations.',
      [
        {
          name: 'shop floor',
          description: 'Aisles of remedies, soaps and sun cream.',
          width: 7,
          floor: 'tileFloor',
          frontDoor: true,
          objects: [
            [
              'shop counter',
              'The counter with the till.',
              'idle',
              'counter',
              [1, 5],
              [2, 5],
              [3, 5],
            ],
            [
              'shelves',
              'Shelves of remedies.',
              'idle',
              'bookshelf',
              [0, 8],
              [1, 8],
              [5, 8],
              [6, 8],
            ],
          ],
        },
        {
          name: 'dispensary',
          description: 'Where prescriptions are made up.',
          width: 3,
          floor: 'tileFloor',
          frontDoor: false,
          objects: [
            ['dispensing bench', 'A clean bench with scales.', 'idle', 'counter', [0, 7], [1, 7]],
            ['medicine cabinet', 'A locked cabinet.', 'locked', 'bookshelf', [2, 1]],
          ],
        },
      ],
    ).sector,
    buildVenue(
      b,
      rowB(33, 43),
      'north',
      "Varga's Grocer",
      'A family grocer with crates of fruit on the pavement in summer.',
      [
        {
          name: 'shop floor',
          description: 'Crates of vegetables and a deli counter.',
          width: 6,
          floor: 'woodFloor',
          frontDoor: true,
          objects: [
            [
              'deli counter',
              'Cheeses, olives and bread.',
              'idle',
              'counter',
              [1, 6],
              [2, 6],
              [3, 6],
            ],
            [
              'produce crates',
              'Crates of apples, leeks and potatoes.',
              'idle',
              'table',
              [0, 2],
              [1, 2],
              [4, 2],
              [5, 2],
            ],
          ],
        },
        {
          name: 'storeroom',
          description: 'Sacks and boxes waiting to be shelved.',
          width: 2,
          floor: 'woodFloor',
          frontDoor: false,
          objects: [['stock shelves', 'Shelves of tins.', 'idle', 'bookshelf', [0, 8], [1, 8]]],
        },
      ],
    ).sector,
    buildVenue(
      b,
      rowB(45, 55),
      'north',
      'Amsel Books',
      'A narrow secondhand bookshop that smells of paper and coffee.',
      [
        {
          name: 'shop floor',
          description: 'Tall shelves and a till.',
          width: 5,
          floor: 'carpetRed',
          frontDoor: true,
          objects: [
            [
              'book stacks',
              'Secondhand books by the yard.',
              'idle',
              'bookshelf',
              [0, 3],
              [0, 4],
              [0, 5],
              [4, 3],
              [4, 4],
              [4, 5],
            ],
            ['till desk', 'A desk with a brass bell.', 'idle', 'desk', [2, 7]],
          ],
        },
        {
          name: 'reading corner',
          description: 'Armchairs where customers read before buying.',
          width: 3,
          floor: 'carpetBlue',
          frontDoor: false,
          objects: [
            ['armchairs', 'Two sagging armchairs.', 'idle', 'sofa', [0, 1], [1, 1]],
            [
              'coffee table',
              'A table with a pot of coffee for customers.',
              'idle',
              'table',
              [1, 6],
            ],
          ],
        },
      ],
    ).sector,
    buildVenue(
      b,
      rowB(59, 73),
      'north',
      'The Gull and Lantern',
      'The harbour pub: food, music on Fridays, and lanterns in every window.',
      [
        {
          name: 'bar room',
          description: 'The main bar, with a fire and a piano.',
          width: 7,
          floor: 'woodFloor',
          frontDoor: true,
          objects: [
            [
              'bar',
              'A long oak bar with brass taps.',
              'idle',
              'counter',
              [0, 6],
              [1, 6],
              [2, 6],
              [3, 6],
              [4, 6],
            ],
            ['fireside table', 'A table by the fire.', 'idle', 'table', [5, 2]],
            ['window table', 'A table by the window.', 'idle', 'table', [1, 2]],
            ['piano', 'An upright piano, slightly out of tune.', 'idle', 'desk', [6, 8]],
          ],
        },
        {
          name: 'back room',
          description: 'A room for parties and meetings, strung with paper lanterns.',
          width: 5,
          floor: 'carpetRed',
          frontDoor: false,
          objects: [
            ['long table', 'A long table for parties.', 'idle', 'table', [1, 4], [2, 4], [3, 4]],
            ['kitchen stove', 'The pub kitchen’s stove.', 'off', 'stove', [4, 8]],
            ['dance floor', 'A cleared space in front of the table.', 'idle', null, [2, 6]],
          ],
        },
      ],
    ).sector,
    buildVenue(
      b,
      rowB(75, 85),
      'north',
      'Raman Pottery',
      'A pottery studio and shop in an old net loft.',
      [
        {
          name: 'studio',
          description: 'Wheels, a kiln and shelves of drying pots.',
          width: 5,
          floor: 'tileFloor',
          frontDoor: true,
          objects: [
            ['potter’s wheel', 'A kick wheel spattered with clay.', 'idle', 'desk', [1, 4]],
            ['kiln', 'A brick kiln.', 'off', 'stove', [4, 8]],
          ],
        },
        {
          name: 'shop',
          description: 'Mugs, bowls and jugs for sale.',
          width: 3,
          floor: 'woodFloor',
          frontDoor: true,
          objects: [
            ['display shelves', 'Shelves of glazed pots.', 'idle', 'bookshelf', [0, 8], [2, 8]],
          ],
        },
      ],
    ).sector,
  );

  // ---- Row C: family homes and the allotments.
  homes.holloway = buildHouse(
    b,
    2,
    28,
    'north',
    'Holloway House',
    'The Holloways’ tall house on Chandler Street.',
    [bed('main bedroom', 'Cedric and Judith', 'carpetRed'), bed("Pip's room", 'Pip', 'carpetBlue')],
  );
  homes.okonjo = buildHouse(
    b,
    16,
    28,
    'north',
    'Okonjo House',
    'The Okonjos’ home, with a boat trailer in the side yard.',
    [bed('main bedroom', 'Emeka and Lena', 'carpetBlue'), bed("Tayo's room", 'Tayo', 'carpetRed')],
  );
  homes.varga = buildHouse(
    b,
    33,
    28,
    'north',
    'Varga House',
    'The Vargas’ house behind the grocer.',
    [bed('main bedroom', 'Istvan and Mila', 'carpetRed'), bed("Dani's room", 'Dani', 'woodFloor')],
  );
  homes.crane = buildHouse(b, 47, 28, 'north', 'Crane House', 'The mayor’s narrow brick house.', [
    bed('bedroom', 'Gideon', 'carpetBlue'),
  ]);
  homes.petrakis = buildHouse(
    b,
    59,
    28,
    'north',
    'Petrakis House',
    'A yellow house with a basketball hoop over the door.',
    [bed("Sofia's room", 'Sofia', 'carpetRed'), bed("Niko's room", 'Niko', 'carpetBlue')],
  );
  const allot = b.sector(
    'The Allotments',
    'Rented vegetable plots tended by half the town.',
    rect(73, 27, 86, 37),
  );
  const plots = b.arena(
    allot,
    'vegetable plots',
    'Rows of beans, kale and flowers.',
    rect(73, 27, 86, 37),
  );
  b.fill(rect(74, 28, 85, 36), 'dirt');
  b.place('flowerBed', ...cellsOf(rect(75, 29, 78, 29)), ...cellsOf(rect(81, 29, 84, 29)));
  b.place('hedge', ...cellsOf(rect(75, 33, 78, 33)));
  b.object(
    plots,
    'potting bench',
    'A bench of seed trays and twine.',
    'idle',
    'counter',
    [80, 35],
    [81, 35],
  );
  b.object(plots, 'garden shed bench', 'A bench outside the shed.', 'idle', 'bench', [75, 35]);
  b.object(plots, 'bean rows', 'Runner beans on canes.', 'growing', null, [82, 31], [83, 31]);
  publicSectors.push(allot);

  // ---- Row D: the lodgings and cottages facing the south street.
  homes.lodgings = buildHouse(
    b,
    2,
    41,
    'north',
    'Quayside Lodgings',
    'A boarding house with four rented rooms over the harbour.',
    [
      bed("Wren's room", 'Wren', 'carpetBlue'),
      bed("Jonah's room", 'Jonah', 'woodFloor'),
      bed("Nadia's room", 'Nadia', 'carpetRed'),
      bed("Kit's room", 'Kit', 'woodFloor'),
    ],
  );
  homes.lantern = buildHouse(
    b,
    24,
    41,
    'north',
    'Lantern Cottage',
    'Ottilie Marsh’s cottage, full of lanterns she has not hung yet.',
    [bed('bedroom', 'Ottilie', 'carpetRed')],
  );
  homes.mill = buildHouse(
    b,
    37,
    41,
    'north',
    'Mill Lane Flat',
    'A shared flat above an old sail loft.',
    [bed("Hana's room", 'Hana', 'carpetBlue'), bed("Priya's room", 'Priya', 'carpetRed')],
  );
  homes.amsel = buildHouse(
    b,
    51,
    41,
    'north',
    'Amsel Cottage',
    'Felix Amsel’s cottage, books stacked on the stairs.',
    [bed('bedroom', 'Felix', 'woodFloor')],
  );
  homes.pennock = buildHouse(
    b,
    61,
    41,
    'north',
    'Pennock Cottage',
    'Maud Pennock’s cottage with a garden of roses.',
    [bed('bedroom', 'Maud', 'carpetRed')],
  );
  b.place('tree', [76, 42], [80, 44], [84, 41], [78, 48]);
  b.place('flowerBed', [62, 50], [63, 50], [67, 50], [68, 50]);

  // ---- The quay.
  const quay = b.sector(
    'The Quay',
    'The harbour wall, the fish market and the moorings.',
    rect(1, 51, WIDTH - 2, 54),
  );
  const wall = b.arena(
    quay,
    'harbour wall',
    'The long stone quay where boats tie up.',
    rect(1, 51, 59, 54),
  );
  b.object(
    wall,
    'quayside bench',
    'A bench looking out over the harbour.',
    'idle',
    'bench',
    [12, 52],
    [44, 52],
  );
  b.object(
    wall,
    'mooring posts',
    'Iron bollards where boats are tied.',
    'idle',
    null,
    [20, 54],
    [30, 54],
    [50, 54],
  );
  const market = b.arena(
    quay,
    'fish market',
    'Open-air stalls selling the morning catch.',
    rect(60, 51, WIDTH - 2, 54),
  );
  b.object(
    market,
    'fish stalls',
    'Trestle stalls of fish on ice.',
    'idle',
    'counter',
    [64, 52],
    [65, 52],
    [70, 52],
    [71, 52],
  );
  b.object(
    market,
    'harbourmaster’s hut',
    'A hut with tide tables and a radio.',
    'idle',
    'desk',
    [80, 52],
  );
  publicSectors.push(quay);

  return { builder: b, homes, publicSectors };
}

const personaDefaults = {
  visionRadius: DEFAULT_VISION_RADIUS,
  attentionBandwidth: DEFAULT_ATTENTION_BANDWIDTH,
  retention: DEFAULT_RETENTION,
  retrievalWeights: { ...DEFAULT_RETRIEVAL_WEIGHTS },
};

const slug = (first: string, last: string) => `${first}-${last}`.toLowerCase();

/** Builds the personas, one spawn per resident on a distinct cell of their own bedroom. */
function personas(town: Town): Persona[] {
  const { builder: b, homes, publicSectors } = town;
  // Public places everyone knows; homes are known only to those who live there.
  const publicPlaces = publicSectors.flatMap((s) => [
    addr(s.name),
    ...s.arenas.map((a) => addr(s.name, a.name)),
  ]);
  return RESIDENTS.map((r) => {
    const home = homes[r.home];
    if (!home) throw new Error(`${r.first}: no home "${r.home}"`);
    const bedroom = home.bedrooms[r.room];
    const spawn = b.spawn(`${r.first}'s bedside`, home.spawnCells[r.room][r.slot]);
    const homePlaces = [
      addr(home.sector.name),
      ...home.sector.arenas.map((a) => addr(home.sector.name, a.name)),
    ];
    return {
      id: slug(r.first, r.last),
      firstName: r.first,
      lastName: r.last,
      age: r.age,
      innate: r.innate,
      learned: r.learned,
      currently: r.currently,
      lifestyle: r.lifestyle,
      dailyPlanRequirement: r.plan,
      livingArea: addr(home.sector.name, bedroom.name),
      seed: r.seed.join('; '),
      knownPlaces: [...homePlaces, ...publicPlaces],
      spawn,
      sprite: `villager-${r.sprite}`,
      ...personaDefaults,
      retrievalWeights: { ...DEFAULT_RETRIEVAL_WEIGHTS },
    };
  });
}

/** Builds the complete Harrow Quay scenario. Pure and deterministic. */
export function buildHarrowQuay(): Scenario {
  const town = buildTown();
  // Spawns are declared while building personas, so build the map afterwards.
  const people = personas(town);
  const { map, tree } = town.builder.build();
  return {
    schemaVersion: SCHEMA_VERSION,
    id: TEMPLATE_ID,
    name: WORLD,
    description:
      'A harbour town of twenty-five people: a college, a town hall, a pharmacy, shops, a pub, a park, allotments and the quay. This week the pub holds a Lantern Night party, the pharmacist announces a run for mayor, a newcomer knows nobody, and a student has a crush on her neighbour.',
    map,
    tree,
    personas: people,
    // Everything but the start and the seed keeps the studio's defaults.
    settings: settingsSchema.parse({ startTime: '2024-10-14T07:00:00', seed: 25 }),
  };
}

/** The template's files (file name → text), exactly as committed under templates/harrow-quay/. */
export function harrowQuayFiles(): Record<string, string> {
  return splitScenario(buildHarrowQuay());
}

function main(): void {
  const dir = writeTemplateFolder(TEMPLATE_ID, harrowQuayFiles());
  renderThumbnail(buildHarrowQuay()).save(thumbnailPath(TEMPLATE_ID));
  console.log(`wrote ${dir} and ${thumbnailPath(TEMPLATE_ID)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
