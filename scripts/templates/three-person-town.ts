/**
 * The built-in "Willow Bend" template: a 48 × 32 college town with a cafe, a college (lecture
 * hall and library), a dormitory, two homes, a square and a park, and three residents whose
 * lives already touch. Everything — layout, names and writing — is original to this project.
 *
 * Run `npx tsx scripts/templates/three-person-town.ts` to (re)write templates/willow-bend/.
 * The output is deterministic; scripts/templates/three-person-town.test.ts checks that the
 * committed files are up to date and that the town is valid and fully reachable.
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
  type Arena,
  type Persona,
  type Scenario,
  type Sector,
} from '../../common/scenario/schema';
import { TownBuilder, cellsOf, rect, type Cell } from './TownBuilder';
import { splitScenario } from '../../common/scenario/split';

/** Template id: also the folder name under templates/. */
export const TEMPLATE_ID = 'willow-bend';
/** The world's name: the first part of every address in this town. */
export const WORLD = 'Willow Bend';

const WIDTH = 48;
const HEIGHT = 32;

/** Named places the personas refer to, filled in while the town is built. */
interface Places {
  cafe: Sector;
  college: Sector;
  dorm: Sector;
  square: Sector;
  park: Sector;
  whitlow: Sector;
  cartwright: Sector;
  spawns: { agnes: number; delphine: number; tobias: number };
}

const addr = (...parts: string[]) => [WORLD, ...parts].join(':');

/** A home with living room, kitchen, bedroom and bathroom; `x0` is its west wall. */
function buildHome(
  b: TownBuilder,
  x0: number,
  name: string,
  description: string,
  look: { living: 'carpetRed' | 'carpetBlue'; bedroom: 'woodFloor' | 'carpetRed' | 'carpetBlue' },
  who: string,
): { sector: Sector; bedroom: Arena; spawnCell: Cell } {
  const y0 = 17;
  const outer = rect(x0, y0, x0 + 11, y0 + 11);
  b.building(outer, 'woodFloor');
  b.vwall(x0 + 6, y0, y0 + 11);
  b.hwall(x0, x0 + 11, y0 + 6);
  b.fill(rect(x0 + 1, y0 + 1, x0 + 5, y0 + 5), look.living);
  b.fill(rect(x0 + 1, y0 + 7, x0 + 5, y0 + 10), 'tileFloor');
  b.fill(rect(x0 + 7, y0 + 1, x0 + 10, y0 + 5), look.bedroom);
  b.fill(rect(x0 + 7, y0 + 7, x0 + 10, y0 + 10), 'tileFloor');
  b.door([x0 + 3, y0], [x0 + 3, y0 + 6], [x0 + 6, y0 + 3], [x0 + 8, y0 + 6]);
  b.window(
    [x0 + 1, y0],
    [x0 + 5, y0],
    [x0 + 8, y0],
    [x0 + 10, y0],
    [x0 + 2, y0 + 11],
    [x0 + 9, y0 + 11],
  );

  const sector = b.sector(name, description, outer);
  const living = b.arena(
    sector,
    'living room',
    `The front room of ${who}'s home, where guests are received.`,
    rect(x0 + 1, y0 + 1, x0 + 5, y0 + 5),
  );
  const kitchen = b.arena(
    sector,
    'kitchen',
    `${who}'s kitchen, small and always smelling of something.`,
    rect(x0 + 1, y0 + 7, x0 + 5, y0 + 10),
  );
  const bedroom = b.arena(
    sector,
    'bedroom',
    `${who}'s bedroom.`,
    rect(x0 + 7, y0 + 1, x0 + 10, y0 + 5),
  );
  const bathroom = b.arena(
    sector,
    'bathroom',
    `${who}'s bathroom.`,
    rect(x0 + 7, y0 + 7, x0 + 10, y0 + 10),
  );

  b.object(
    living,
    'sofa',
    'A soft two-seat sofa facing the window.',
    'idle',
    'sofa',
    [x0 + 1, y0 + 4],
    [x0 + 2, y0 + 4],
  );
  b.object(living, 'tea table', 'A low wooden table with a lace runner.', 'idle', 'table', [
    x0 + 1,
    y0 + 2,
  ]);
  b.object(living, 'bookshelf', 'A tall shelf of well-thumbed books.', 'idle', 'bookshelf', [
    x0 + 5,
    y0 + 1,
  ]);
  b.place('plantPot', [x0 + 5, y0 + 5]);
  b.place('chair', [x0 + 1, y0 + 1]);

  b.object(kitchen, 'stove', 'A cast-iron stove with four burners.', 'off', 'stove', [
    x0 + 1,
    y0 + 7,
  ]);
  b.object(
    kitchen,
    'kitchen counter',
    'A counter by the stove for chopping and pouring.',
    'idle',
    'counter',
    [x0 + 4, y0 + 7],
    [x0 + 5, y0 + 7],
  );
  b.object(
    kitchen,
    'dining table',
    'A table for two by the back window.',
    'idle',
    'table',
    [x0 + 2, y0 + 10],
    [x0 + 3, y0 + 10],
  );
  b.place('chair', [x0 + 2, y0 + 9], [x0 + 3, y0 + 9]);

  b.object(bedroom, 'bed', `${who}'s bed, with a patchwork quilt.`, 'made', 'bed', [
    x0 + 10,
    y0 + 1,
  ]);
  b.object(
    bedroom,
    'writing desk',
    'A small desk under the window for letters and lists.',
    'idle',
    'desk',
    [x0 + 8, y0 + 1],
  );
  b.place('lamp', [x0 + 10, y0 + 5]);

  b.object(bathroom, 'sink', 'A washbasin with a round mirror above it.', 'idle', 'counter', [
    x0 + 10,
    y0 + 7,
  ]);
  b.object(
    bathroom,
    'towel shelf',
    'Shelves of folded towels and bath salts.',
    'idle',
    'bookshelf',
    [x0 + 7, y0 + 10],
  );
  b.place('plantPot', [x0 + 10, y0 + 10]);

  return { sector, bedroom, spawnCell: [x0 + 8, y0 + 3] };
}

/** Paints the whole town and returns the builder plus the places personas refer to. */
function buildTown(): { builder: TownBuilder; places: Places } {
  const b = new TownBuilder(WORLD, WIDTH, HEIGHT, 7);
  b.fill(rect(0, 0, WIDTH - 1, HEIGHT - 1), 'grass');

  // ---- Edges: a ring of trees, and the high street with its verges.
  for (let x = 0; x < WIDTH; x++) b.place('tree', [x, 0], [x, HEIGHT - 1]);
  for (let y = 0; y < HEIGHT; y++) b.place('tree', [0, y], [WIDTH - 1, y]);
  b.fill(rect(1, 14, WIDTH - 2, 15), 'dirt');
  b.clear([0, 14], [0, 15], [WIDTH - 1, 14], [WIDTH - 1, 15]);
  b.fill(rect(0, 14, 0, 15), 'dirt').fill(rect(WIDTH - 1, 14, WIDTH - 1, 15), 'dirt');
  for (const x of [3, 11, 20, 27, 35, 45]) b.place('lamp', [x, 13]);
  for (const x of [2, 10, 13, 33, 46]) b.place('lamp', [x, 16]);

  // ---- Larkspur College: lecture hall (west) and library (east).
  const collegeRect = rect(1, 1, 21, 12);
  b.building(collegeRect, 'woodFloor');
  b.fill(rect(12, 2, 20, 11), 'carpetRed');
  b.vwall(11, 1, 12);
  b.door([11, 7], [6, 12], [16, 12]);
  b.window([4, 1], [8, 1], [14, 1], [18, 1], [3, 12], [9, 12], [13, 12], [19, 12]);
  b.fill(rect(6, 13, 6, 13), 'cobble').fill(rect(16, 13, 16, 13), 'cobble');
  const college = b.sector(
    'Larkspur College',
    'A small liberal-arts college of red brick, founded by the mill families. Classes run on weekdays.',
    collegeRect,
  );
  const hall = b.arena(
    college,
    'lecture hall',
    'A wood-floored hall with rows of desks facing a lectern.',
    rect(2, 2, 10, 11),
  );
  b.object(
    hall,
    'lectern',
    'The lecturer’s desk at the front of the hall.',
    'idle',
    'desk',
    [6, 3],
  );
  b.object(
    hall,
    'student desks',
    'Rows of scratched oak desks for the students.',
    'idle',
    'desk',
    [3, 6],
    [4, 6],
    [8, 6],
    [9, 6],
    [3, 8],
    [4, 8],
    [8, 8],
    [9, 8],
    [3, 10],
    [4, 10],
    [8, 10],
    [9, 10],
  );
  b.place('plantPot', [2, 2], [10, 2]);
  b.place('bookshelf', [2, 11]);
  const library = b.arena(
    college,
    'library',
    'A hushed, carpeted library with an archive of town papers.',
    rect(12, 2, 20, 11),
  );
  b.object(
    library,
    'bookshelves',
    'Wall shelves of novels, atlases and journals.',
    'idle',
    'bookshelf',
    [12, 2],
    [13, 2],
    [15, 2],
    [16, 2],
    [17, 2],
    [19, 2],
    [20, 2],
  );
  b.object(
    library,
    'archive shelves',
    'Boxes of old letters, ledgers and maps from the town’s early years.',
    'idle',
    'bookshelf',
    [13, 5],
    [14, 5],
    [18, 5],
    [19, 5],
  );
  b.object(
    library,
    'reading table',
    'Long tables with green-shaded lamps.',
    'idle',
    'table',
    [13, 8],
    [14, 8],
    [18, 8],
    [19, 8],
  );
  b.place('chair', [13, 7], [14, 7], [18, 7], [19, 7]);
  b.object(
    library,
    'librarian’s desk',
    'The front desk, with a bell and a card index.',
    'idle',
    'desk',
    [19, 10],
  );
  b.object(
    library,
    'reading nook',
    'A worn sofa in the corner, good for long chapters.',
    'idle',
    'sofa',
    [12, 10],
    [13, 10],
  );
  b.place('lamp', [20, 7]);
  b.place('plantPot', [20, 11]);

  // ---- The quad between college and dorm.
  b.fill(rect(22, 1, 23, 12), 'grass');
  b.place('tree', [22, 2], [23, 10]);
  b.place('flowerBed', [22, 5], [23, 5]);
  b.place('bench', [22, 7]);

  // ---- Fernhall Dormitory.
  const dormRect = rect(24, 1, 36, 12);
  b.building(dormRect, 'woodFloor');
  b.hwall(24, 36, 6);
  b.vwall(29, 1, 6).vwall(33, 1, 6);
  b.fill(rect(25, 2, 28, 5), 'carpetBlue');
  b.fill(rect(30, 2, 32, 5), 'carpetRed');
  b.fill(rect(34, 2, 35, 5), 'tileFloor');
  b.door([27, 6], [31, 6], [34, 6], [30, 12]);
  b.window([26, 1], [31, 1], [35, 1], [26, 12], [34, 12]);
  b.fill(rect(30, 13, 30, 13), 'cobble');
  const dorm = b.sector(
    'Fernhall Dormitory',
    'The student residence: two rooms, a shared bathroom and a lively common room.',
    dormRect,
  );
  const tobiasRoom = b.arena(
    dorm,
    "Tobias's room",
    "Tobias Mensah's dorm room, crowded with seedlings in jars.",
    rect(25, 2, 28, 5),
  );
  b.object(tobiasRoom, 'bed', 'A narrow bed under the window.', 'made', 'bed', [25, 2]);
  b.object(
    tobiasRoom,
    'desk',
    'A desk covered in field notes and a microscope.',
    'idle',
    'desk',
    [27, 3],
  );
  b.place('chair', [27, 2]);
  b.object(
    tobiasRoom,
    'bookshelf',
    'Botany textbooks and jars of willow cuttings.',
    'idle',
    'bookshelf',
    [28, 5],
  );
  b.place('plantPot', [25, 5], [26, 5]);
  const spare = b.arena(
    dorm,
    'vacant room',
    'An empty dorm room kept for visiting students.',
    rect(30, 2, 32, 5),
  );
  b.object(spare, 'bed', 'A freshly made spare bed.', 'made', 'bed', [30, 2]);
  b.object(spare, 'desk', 'An empty desk.', 'idle', 'desk', [32, 3]);
  b.place('chair', [32, 2]);
  const dormBath = b.arena(dorm, 'bathroom', 'The shared dorm bathroom.', rect(34, 2, 35, 5));
  b.object(
    dormBath,
    'sink',
    'A chipped basin with a tap that squeaks.',
    'idle',
    'counter',
    [35, 2],
  );
  b.object(dormBath, 'shower', 'A tiled shower stall.', 'off', null, [34, 2]);
  const common = b.arena(
    dorm,
    'common room',
    'A shared lounge and kitchenette where residents study and cook.',
    rect(25, 7, 35, 11),
  );
  b.object(common, 'sofa', 'A long, sagging sofa.', 'idle', 'sofa', [26, 8], [27, 8]);
  b.object(
    common,
    'coffee table',
    'A low table stacked with board games.',
    'idle',
    'table',
    [26, 10],
    [27, 10],
  );
  b.object(
    common,
    'dining table',
    'A table where residents share meals.',
    'idle',
    'table',
    [32, 9],
    [33, 9],
  );
  b.place('chair', [32, 8], [33, 8]);
  b.object(
    common,
    'kitchenette stove',
    'A two-ring stove for late-night noodles.',
    'off',
    'stove',
    [35, 11],
  );
  b.object(
    common,
    'kitchenette counter',
    'A counter with a kettle and a shared fridge.',
    'idle',
    'counter',
    [33, 11],
    [34, 11],
  );
  b.object(
    common,
    'game shelf',
    'Board games, puzzles and a lost-and-found box.',
    'idle',
    'bookshelf',
    [25, 11],
  );
  b.place('lamp', [35, 7]);
  b.place('plantPot', [29, 7]);

  // ---- Willow Green: the park with its pond at the bend of the creek.
  const parkRect = rect(37, 1, 46, 12);
  const park = b.sector(
    'Willow Green',
    'A small park around a willow-fringed pond; the town is named for it.',
    parkRect,
  );
  b.fill(rect(40, 1, 46, 8), 'sand');
  b.fill(rect(40, 1, 40, 1), 'grass')
    .fill(rect(40, 8, 40, 8), 'grass')
    .fill(rect(46, 8, 46, 8), 'grass');
  b.fill(rect(42, 3, 45, 6), 'water');
  b.fill(rect(42, 2, 44, 2), 'water')
    .fill(rect(41, 4, 41, 5), 'water')
    .fill(rect(43, 7, 45, 7), 'water');
  b.fill(rect(45, 1, 46, 2), 'water').fill(rect(46, 3, 46, 3), 'water');
  b.fill(rect(37, 12, 46, 12), 'grass');
  b.place('hedge', ...cellsOf(rect(37, 12, 46, 12)));
  b.clear([40, 12], [41, 12]);
  b.fill(rect(40, 12, 41, 13), 'cobble').fill(rect(40, 9, 41, 11), 'dirt');
  const bank = b.arena(
    park,
    'pond bank',
    'A sandy bank around the pond, shaded by the old willow.',
    rect(37, 1, 46, 8),
  );
  b.object(
    bank,
    'bench by the pond',
    'A bench facing the water, carved with initials.',
    'idle',
    'bench',
    [40, 3],
  );
  b.object(
    bank,
    'fishing spot',
    'A flat stone at the water’s edge where people sit and dangle their feet.',
    'idle',
    null,
    [42, 8],
  );
  b.place('tree', [38, 2], [38, 6], [46, 5]);
  b.place('flowerBed', [37, 4], [39, 4]);
  const lawn = b.arena(
    park,
    'picnic lawn',
    'An open lawn for picnics, games and lying in the sun.',
    rect(37, 9, 46, 11),
  );
  b.object(
    lawn,
    'picnic table',
    'A weathered picnic table with bench seats.',
    'idle',
    'table',
    [38, 10],
    [39, 10],
  );
  b.object(lawn, 'lawn bench', 'A green bench beside the flower beds.', 'idle', 'bench', [44, 10]);
  b.place('flowerBed', [45, 10], [46, 10], [43, 10]);
  b.place('tree', [46, 9]);

  // ---- The Copper Kettle cafe.
  const cafeRect = rect(1, 17, 13, 27);
  b.building(cafeRect, 'woodFloor');
  b.fill(rect(2, 23, 12, 26), 'tileFloor');
  b.door([7, 17]);
  b.window([3, 17], [5, 17], [10, 17], [12, 17], [4, 27], [10, 27]);
  b.fill(rect(7, 16, 7, 16), 'cobble');
  const cafe = b.sector(
    'The Copper Kettle',
    'The town’s cafe: strong coffee, fruit pies and the best gossip in Willow Bend.',
    cafeRect,
  );
  const seating = b.arena(
    cafe,
    'seating area',
    'Tables by the front windows where customers sit and talk.',
    rect(2, 18, 12, 22),
  );
  b.object(
    seating,
    'window table',
    'A table for two by the front window.',
    'idle',
    'table',
    [3, 20],
  );
  b.object(seating, 'corner table', 'A table in the quiet corner.', 'idle', 'table', [5, 20]);
  b.object(
    seating,
    'long table',
    'A long shared table for groups and students.',
    'idle',
    'table',
    [9, 20],
    [10, 20],
  );
  b.object(seating, 'sofa', 'A velvet sofa under the clock.', 'idle', 'sofa', [11, 18], [12, 18]);
  b.place('chair', [3, 19], [5, 19], [9, 19], [10, 19]);
  b.place('plantPot', [2, 18], [2, 22]);
  const counterArea = b.arena(
    cafe,
    'counter area',
    'The service counter and the kitchen behind it.',
    rect(2, 23, 12, 26),
  );
  b.object(
    counterArea,
    'service counter',
    'The long counter with the till and the pastry case.',
    'idle',
    'counter',
    [2, 23],
    [3, 23],
    [4, 23],
    [5, 23],
    [6, 23],
    [7, 23],
    [8, 23],
    [9, 23],
  );
  b.object(
    counterArea,
    'coffee machine',
    'A gleaming espresso machine that hisses.',
    'off',
    'stove',
    [5, 25],
  );
  b.object(
    counterArea,
    'oven',
    'A big oven for pies and scones.',
    'off',
    'stove',
    [2, 26],
    [3, 26],
  );
  b.object(
    counterArea,
    'prep counter',
    'A floury counter for rolling pastry.',
    'idle',
    'counter',
    [6, 26],
    [7, 26],
    [8, 26],
  );
  b.object(
    counterArea,
    'pantry shelf',
    'Shelves of flour, jam jars and coffee beans.',
    'idle',
    'bookshelf',
    [11, 26],
    [12, 26],
  );
  b.place('plantPot', [12, 24]);

  // ---- Lantern Square, with its fountain.
  const squareRect = rect(14, 17, 21, 29);
  b.fill(squareRect, 'cobble');
  b.fill(rect(17, 22, 18, 23), 'water');
  b.place('flowerBed', [16, 21], [19, 21], [16, 24], [19, 24]);
  const square = b.sector(
    'Lantern Square',
    'A cobbled square with a fountain, where the town gathers on festival nights.',
    squareRect,
  );
  const plaza = b.arena(
    square,
    'fountain plaza',
    'The open cobbles around the fountain.',
    squareRect,
  );
  b.object(
    plaza,
    'west bench',
    'A bench on the west side of the fountain.',
    'idle',
    'bench',
    [15, 23],
  );
  b.object(
    plaza,
    'east bench',
    'A bench on the east side of the fountain.',
    'idle',
    'bench',
    [20, 23],
  );
  b.object(
    plaza,
    'fountain',
    'A stone fountain whose rim is the town’s favourite meeting spot.',
    'running',
    null,
    [17, 24],
    [18, 24],
  );
  b.place('lamp', [14, 17], [21, 17], [14, 29], [21, 29]);
  b.place('tree', [15, 28], [20, 28]);

  // ---- Two homes.
  const w = buildHome(
    b,
    22,
    'Whitlow Cottage',
    'Agnes Whitlow’s cottage: books on every surface and a kettle always on.',
    { living: 'carpetRed', bedroom: 'woodFloor' },
    'Agnes',
  );
  const c = buildHome(
    b,
    35,
    'Cartwright House',
    'Delphine Cartwright’s house, two streets’ worth of noise away from the cafe.',
    { living: 'carpetBlue', bedroom: 'carpetRed' },
    'Delphine',
  );
  b.fill(rect(25, 16, 25, 16), 'cobble').fill(rect(38, 16, 38, 16), 'cobble');
  // A garden path between the two homes.
  b.fill(rect(34, 17, 34, 28), 'dirt');

  // ---- Back gardens and the south edge.
  b.fill(rect(1, 28, 13, 30), 'dirt');
  b.place('flowerBed', ...cellsOf(rect(2, 29, 6, 29)));
  b.place('fence', ...cellsOf(rect(1, 30, 13, 30)));
  b.place('hedge', ...cellsOf(rect(22, 30, 46, 30)));
  b.place('flowerBed', [23, 29], [24, 29], [25, 29], [36, 29], [37, 29], [38, 29]);
  // Garden sheds: small roofed huts behind each home.
  b.fill(rect(31, 29, 32, 30), 'roofRed').clear(...cellsOf(rect(31, 29, 32, 30)));
  b.fill(rect(43, 29, 44, 30), 'roofSlate').clear(...cellsOf(rect(43, 29, 44, 30)));
  b.fill(rect(34, 29, 34, 29), 'dirt');

  const agnes = b.spawn("Agnes's bedside", w.spawnCell);
  const delphine = b.spawn("Delphine's bedside", c.spawnCell);
  const tobias = b.spawn("Tobias's bedside", [26, 3]);

  return {
    builder: b,
    places: {
      cafe,
      college,
      dorm,
      square,
      park,
      whitlow: w.sector,
      cartwright: c.sector,
      spawns: { agnes, delphine, tobias },
    },
  };
}

/** Persona defaults that every Willow Bend resident shares (the reference 8/8/8). */
const personaDefaults = {
  visionRadius: DEFAULT_VISION_RADIUS,
  attentionBandwidth: DEFAULT_ATTENTION_BANDWIDTH,
  retention: DEFAULT_RETENTION,
  retrievalWeights: { ...DEFAULT_RETRIEVAL_WEIGHTS },
};

function personas(p: Places): Persona[] {
  const cafe = addr(p.cafe.name, 'seating area');
  const counter = addr(p.cafe.name, 'counter area');
  const library = addr(p.college.name, 'library');
  const hall = addr(p.college.name, 'lecture hall');
  const plaza = addr(p.square.name, 'fountain plaza');
  const bank = addr(p.park.name, 'pond bank');
  const lawn = addr(p.park.name, 'picnic lawn');
  const home = (s: Sector, ...arenas: string[]) => arenas.map((a) => addr(s.name, a));
  return [
    {
      id: 'delphine-cartwright',
      firstName: 'Delphine',
      lastName: 'Cartwright',
      age: 47,
      innate: 'warm, stubborn, quick-witted, nosy in a kindly way',
      learned:
        'Delphine Cartwright owns and runs The Copper Kettle, the only cafe in Willow Bend. She bakes every pie herself, remembers how each regular takes their coffee, and believes a town is held together by the places where people sit down together. She grew up in Willow Bend, left for the city in her twenties, and came back fifteen years ago to take over the cafe from her aunt.',
      currently:
        'Delphine is collecting signatures for a petition asking the town council to spare the old willow on the pond bank at Willow Green, which the council plans to cut down before the footpath is widened; she wants enough names to present it at the council meeting on Friday evening.',
      lifestyle:
        'Delphine goes to bed around 10pm and wakes up around 5:30am to bake; she opens the cafe at 7am, takes a short walk in the early afternoon, and closes at 6pm.',
      dailyPlanRequirement:
        'Delphine runs The Copper Kettle from 7am to 6pm every weekday, baking before opening; she spends some time each day asking customers and neighbours to sign her petition for the willow.',
      livingArea: addr(p.cartwright.name, 'bedroom'),
      seed: 'Delphine Cartwright owns The Copper Kettle cafe on the high street of Willow Bend; Delphine bakes a different fruit pie every morning and writes its name in chalk above the counter; Delphine is collecting signatures to save the old willow at Willow Green from being cut down; Delphine knows Agnes Whitlow, who has had breakfast at The Copper Kettle almost every morning for twenty years; Delphine was once a student in Agnes Whitlow’s history class and still calls her "Professor" as a joke; Delphine knows Tobias Mensah, the botany student who works afternoon shifts at her cafe; Delphine thinks Tobias is clever but far too shy to speak up for himself; Delphine hopes someone with real knowledge will speak for the willow at Friday’s council meeting',
      knownPlaces: [
        ...home(p.cartwright, 'living room', 'kitchen', 'bedroom', 'bathroom'),
        cafe,
        counter,
        plaza,
        bank,
        lawn,
        library,
      ],
      spawn: p.spawns.delphine,
      sprite: 'villager-8',
      ...personaDefaults,
    },
    {
      id: 'tobias-mensah',
      firstName: 'Tobias',
      lastName: 'Mensah',
      age: 20,
      innate: 'curious, shy, meticulous, gentle',
      learned:
        'Tobias Mensah is a second-year botany student at Larkspur College who would rather talk to plants than to crowds. He keeps careful field notebooks, grows seedlings in jam jars on his windowsill, and pays his way with afternoon shifts at The Copper Kettle. He is steady and kind but dreads speaking in front of people.',
      currently:
        'Tobias is writing a research proposal on how the roots of creekside willows hold the banks of Willow Green’s pond together; his measurements suggest that felling the old willow could let the bank wash away, but he has told no one yet.',
      lifestyle:
        'Tobias goes to bed around midnight and wakes up around 7:30am; he studies in the library in the mornings and works at the cafe from 2pm to 6pm on weekdays.',
      dailyPlanRequirement:
        'Tobias attends Professor Whitlow’s 10am lecture on Mondays, Wednesdays and Fridays, works at The Copper Kettle from 2pm to 6pm on weekdays, and visits the pond bank to take root and soil measurements.',
      livingArea: addr(p.dorm.name, "Tobias's room"),
      seed: 'Tobias Mensah is a second-year botany student at Larkspur College and lives in Fernhall Dormitory; Tobias works afternoon shifts behind the counter at The Copper Kettle; Tobias is measuring the roots of the old willow on the pond bank at Willow Green for his research proposal; Tobias suspects the pond bank would collapse if the old willow were cut down; Tobias knows Delphine Cartwright, his boss at the cafe, who talks to everyone and always saves him the burnt pie crusts; Tobias knows Professor Agnes Whitlow, whose history lecture he takes as an elective and who once lent him a book of old town maps; Tobias is nervous about speaking in public and has never been to a council meeting; Tobias wants to finish his proposal draft by the end of the week',
      knownPlaces: [
        addr(p.dorm.name, "Tobias's room"),
        addr(p.dorm.name, 'common room'),
        addr(p.dorm.name, 'bathroom'),
        hall,
        library,
        cafe,
        counter,
        bank,
        lawn,
        plaza,
      ],
      spawn: p.spawns.tobias,
      sprite: 'villager-3',
      ...personaDefaults,
    },
    {
      id: 'agnes-whitlow',
      firstName: 'Agnes',
      lastName: 'Whitlow',
      age: 63,
      innate: 'patient, dry-humoured, principled, absent-minded',
      learned:
        'Agnes Whitlow is a professor of local history at Larkspur College, where she has taught for thirty years. She knows the story behind every street name in Willow Bend, keeps her reading glasses on a chain she forgets she is wearing, and is quietly proud of the students who have gone on to do good work. She is writing a book about the mills that founded the town.',
      currently:
        'Agnes is sorting the college library’s archive boxes for her book on the town’s mills, and has just found a bundle of letters from the town’s founding years that mention planting a willow at the bend of the creek.',
      lifestyle:
        'Agnes goes to bed around 10:30pm and wakes up around 6am; she walks to The Copper Kettle for breakfast at 7:30am and spends afternoons in the library archive.',
      dailyPlanRequirement:
        'Agnes teaches her local history lecture at 10am on Mondays, Wednesdays and Fridays, eats breakfast at The Copper Kettle every morning, and works in the library archive each afternoon.',
      livingArea: addr(p.whitlow.name, 'bedroom'),
      seed: 'Agnes Whitlow is a professor of local history at Larkspur College and lives in Whitlow Cottage; Agnes has eaten breakfast at The Copper Kettle nearly every morning for twenty years; Agnes is writing a book about the mills that founded Willow Bend; Agnes found letters in the library archive that describe the founders planting a willow at the bend of the creek; Agnes has not yet heard that the town council plans to cut down the old willow at Willow Green; Agnes knows Delphine Cartwright, who was a lively, argumentative student in her class decades ago and now runs the cafe; Agnes knows Tobias Mensah, a quiet botany student in her lecture who writes unusually careful essays; Agnes believes the young should be pushed, gently, to say what they know out loud',
      knownPlaces: [
        ...home(p.whitlow, 'living room', 'kitchen', 'bedroom', 'bathroom'),
        hall,
        library,
        cafe,
        plaza,
        bank,
        lawn,
      ],
      spawn: p.spawns.agnes,
      sprite: 'villager-5',
      ...personaDefaults,
    },
  ];
}

/** Builds the complete Willow Bend scenario. Pure and deterministic. */
export function buildWillowBend(): Scenario {
  const { builder, places } = buildTown();
  const { map, tree } = builder.build();
  return {
    schemaVersion: SCHEMA_VERSION,
    id: TEMPLATE_ID,
    name: WORLD,
    description:
      'A small college town at the bend of a creek: a cafe, a college with a library, a dormitory, two homes, a fountain square and a willow-fringed park. Three residents — a cafe owner, a botany student and a history professor — each hold one piece of the story of the old willow that the council means to cut down.',
    map,
    tree,
    personas: personas(places),
    // Everything but the start and the seed keeps the studio's defaults.
    settings: settingsSchema.parse({ startTime: '2024-04-15T07:00:00', seed: 42 }),
  };
}

/**
 * The template's files (file name → text), exactly as committed under templates/willow-bend/:
 * the shared unpacked-pack layout of common/scenario/split.ts.
 */
export function willowBendFiles(): Record<string, string> {
  return splitScenario(buildWillowBend());
}

function main(): void {
  const dir = writeTemplateFolder(TEMPLATE_ID, willowBendFiles());
  console.log(`wrote ${dir}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
