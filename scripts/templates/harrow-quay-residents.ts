/**
 * The twenty-five residents of Harrow Quay (see twenty-five-person-town.ts). All names and
 * writing are original to this project. Seeds are lists of clauses (joined with "; ").
 * The week begins Monday 14 October 2024; Ottilie's party is on Friday 18 October.
 */
export interface Resident {
  first: string;
  last: string;
  age: number;
  /** Key of the home in the town's `homes` table. */
  home: string;
  /** Index of their bedroom in that home, and which spawn cell in it they take. */
  room: number;
  slot: number;
  sprite: number;
  innate: string;
  learned: string;
  currently: string;
  lifestyle: string;
  plan: string;
  seed: string[];
}

export const RESIDENTS: Resident[] = [
  {
    first: 'Ottilie',
    last: 'Marsh',
    age: 44,
    home: 'lantern',
    room: 0,
    slot: 0,
    sprite: 8,
    innate: 'generous, energetic, sociable, a little scatterbrained',
    learned:
      'Ottilie Marsh runs The Gull and Lantern, the pub on the harbour front. She took it over from her father and turned it into the place the whole town passes through, with soup at lunch and music on Fridays. She loves bringing people together who would never otherwise meet.',
    currently:
      'Ottilie is planning a Lantern Night party at The Gull and Lantern on Friday 18 October from 7pm to 10pm, and is inviting everyone she meets to come and bring a lantern.',
    lifestyle:
      'Ottilie goes to bed around midnight and wakes up around 8am; she opens the pub at 11am and closes it at 11pm.',
    plan: 'Ottilie runs The Gull and Lantern from 11am to 11pm; this week she must invite people to Friday’s Lantern Night party and get the back room ready for it.',
    seed: [
      'Ottilie Marsh owns The Gull and Lantern, the harbour pub of Harrow Quay',
      'Ottilie is hosting a Lantern Night party at The Gull and Lantern on Friday 18 October from 7pm to 10pm',
      'Ottilie wants as many neighbours as possible to come to the party, each carrying a lantern',
      'Ottilie works with Jonah Reyes, who tends the bar most evenings',
      'Ottilie buys her bread and cheese from Istvan Varga at the grocer',
      'Ottilie thinks Maud Pennock would bring the best lanterns in town if she could be persuaded to come',
      'Ottilie has heard a rumour that Cedric Holloway might stand for mayor',
    ],
  },
  {
    first: 'Jonah',
    last: 'Reyes',
    age: 22,
    home: 'lodgings',
    room: 1,
    slot: 0,
    sprite: 3,
    innate: 'easygoing, funny, restless, kind',
    learned:
      'Jonah Reyes is a final-year marine engineering student at Saltmarsh College who pays his rent by working behind the bar at The Gull and Lantern. He can fix almost anything with an engine and plays the pub piano badly but loudly.',
    currently:
      'Jonah is finishing a project on small tidal turbines and trying to find time to fix the pub’s leaking beer cellar pump.',
    lifestyle:
      'Jonah goes to bed around 1am and wakes up around 9am; he works at the pub most evenings.',
    plan: 'Jonah attends lab sessions at Saltmarsh College in the mornings and works at The Gull and Lantern from 6pm to 11pm.',
    seed: [
      'Jonah Reyes studies marine engineering at Saltmarsh College and lives at Quayside Lodgings',
      'Jonah works evenings behind the bar at The Gull and Lantern for Ottilie Marsh',
      'Jonah is building a model tidal turbine in the college laboratory with help from Theo Brandt',
      'Jonah knows Wren Talbot from the lodgings, and thinks of her as a good friend who always lends him notes',
      'Jonah promised Ottilie Marsh he would play the piano at her party on Friday',
    ],
  },
  {
    first: 'Wren',
    last: 'Talbot',
    age: 20,
    home: 'lodgings',
    room: 0,
    slot: 0,
    sprite: 6,
    innate: 'thoughtful, romantic, observant, shy',
    learned:
      'Wren Talbot is a second-year student of coastal ecology at Saltmarsh College. She keeps a sketchbook of every bird she sees on the harbour and writes long letters home to her grandmother.',
    currently:
      'Wren is working on a survey of the seabirds nesting along the harbour wall, and is quietly trying to work up the courage to tell Jonah how she feels about him.',
    lifestyle:
      'Wren goes to bed around 11pm and wakes up around 6:30am to watch the birds at dawn.',
    plan: 'Wren attends lectures at Saltmarsh College each weekday morning and spends the late afternoon counting birds on the quay.',
    seed: [
      'Wren Talbot studies coastal ecology at Saltmarsh College and lives at Quayside Lodgings',
      'Wren has a crush on Jonah Reyes, who lives in the room next to hers, but has never told him',
      'Wren is counting the seabirds that nest along the harbour wall for Dr. Lena Okonjo’s class',
      'Wren studies with Pip Holloway in the college library most afternoons',
      'Wren finds parties overwhelming but would go to one if Jonah Reyes were there',
    ],
  },
  {
    first: 'Cedric',
    last: 'Holloway',
    age: 52,
    home: 'holloway',
    room: 0,
    slot: 0,
    sprite: 1,
    innate: 'conscientious, earnest, ambitious, a good listener',
    learned:
      'Cedric Holloway is the pharmacist of Harrow Quay and runs Holloway Pharmacy, which his mother founded. Half the town trusts him with their worries as well as their prescriptions. He has sat on the harbour committee for ten years.',
    currently:
      'Cedric has decided to run for mayor in the election on 5 November, now that Gideon Crane is retiring, and plans to announce it to the town this week; he wants to keep the ferry running through the winter.',
    lifestyle:
      'Cedric goes to bed around 10:30pm and wakes up around 6am; he opens the pharmacy at 8:30am.',
    plan: 'Cedric runs Holloway Pharmacy from 8:30am to 5:30pm on weekdays and spends his evenings talking to neighbours about his campaign for mayor.',
    seed: [
      'Cedric Holloway is the pharmacist at Holloway Pharmacy and lives in Holloway House with his wife Judith Holloway and their daughter Pip Holloway',
      'Cedric is running for mayor of Harrow Quay in the election on 5 November',
      'Cedric wants the winter ferry service to keep running so that older residents can reach the hospital on the mainland',
      'Cedric works with Hana Mori, the pharmacy assistant he trusts completely',
      'Cedric respects Gideon Crane, the retiring mayor, but thinks the council has grown sleepy',
      'Cedric hopes to announce his campaign to as many people as possible before Friday',
    ],
  },
  {
    first: 'Judith',
    last: 'Holloway',
    age: 50,
    home: 'holloway',
    room: 0,
    slot: 1,
    sprite: 5,
    innate: 'organised, frank, loyal, wry',
    learned:
      'Judith Holloway is the town clerk of Harrow Quay and knows every rule, record and deadline the council keeps. She sings in the harbour choir and grows tomatoes at the allotments.',
    currently:
      'Judith is preparing the ballot papers for the mayoral election and worrying, privately, about what her husband’s campaign will mean for her job as clerk.',
    lifestyle: 'Judith goes to bed around 10:30pm and wakes up around 6:30am.',
    plan: 'Judith works in the clerk’s office at the Town Hall from 9am to 5pm on weekdays and visits her allotment plot in the evenings.',
    seed: [
      'Judith Holloway is the town clerk and lives in Holloway House with her husband Cedric Holloway and their daughter Pip Holloway',
      'Judith is preparing the ballot papers for the mayoral election on 5 November',
      'Judith works with Sofia Petrakis at the Town Hall and with Mayor Gideon Crane',
      'Judith worries that people will say the election is unfair because her husband Cedric is a candidate',
      'Judith keeps a tomato plot at the allotments next to Maud Pennock',
    ],
  },
  {
    first: 'Pip',
    last: 'Holloway',
    age: 19,
    home: 'holloway',
    room: 1,
    slot: 0,
    sprite: 7,
    innate: 'bright, opinionated, impatient, loyal',
    learned:
      'Pip Holloway is a first-year politics student at Saltmarsh College who argues with everyone at dinner, especially her parents. She edits the college newsletter.',
    currently:
      'Pip is writing a newsletter feature about the mayoral election and wants to interview both candidates, including her own father.',
    lifestyle: 'Pip goes to bed around midnight and wakes up around 8am.',
    plan: 'Pip attends lectures at Saltmarsh College on weekday mornings and works on the college newsletter in the library in the afternoons.',
    seed: [
      'Pip Holloway is a first-year student at Saltmarsh College and lives with her parents Cedric Holloway and Judith Holloway',
      'Pip edits the college newsletter and is writing about the mayoral election',
      'Pip knows her father Cedric Holloway is running for mayor and wants to interview him like any other candidate',
      'Pip studies with Wren Talbot in the college library',
      'Pip thinks Professor Imogen Lark gives the hardest essays in the college',
    ],
  },
  {
    first: 'Emeka',
    last: 'Okonjo',
    age: 45,
    home: 'okonjo',
    room: 0,
    slot: 0,
    sprite: 2,
    innate: 'steady, practical, cheerful, protective',
    learned:
      'Emeka Okonjo is the harbourmaster of Harrow Quay. He knows the tide tables by heart, every boat by its engine noise, and most of the fishermen by their grandfathers.',
    currently:
      'Emeka is arranging repairs to the harbour wall before the winter storms and teaching his son Tayo to sail.',
    lifestyle: 'Emeka goes to bed around 10pm and wakes up around 5am for the early tide.',
    plan: 'Emeka works at the harbourmaster’s hut on the quay from 6am to 3pm and spends evenings at home with his family.',
    seed: [
      'Emeka Okonjo is the harbourmaster and lives in Okonjo House with his wife Lena Okonjo and their son Tayo Okonjo',
      'Emeka is organising repairs to the harbour wall before the winter storms',
      'Emeka is teaching Tayo Okonjo to sail a dinghy on Saturdays',
      'Emeka has known Ottilie Marsh since school and drinks at The Gull and Lantern on Fridays',
      'Emeka thinks Cedric Holloway would make a sensible mayor',
    ],
  },
  {
    first: 'Lena',
    last: 'Okonjo',
    age: 43,
    home: 'okonjo',
    room: 0,
    slot: 1,
    sprite: 5,
    innate: 'curious, precise, warm, busy',
    learned:
      'Dr. Lena Okonjo lectures in marine biology at Saltmarsh College. She runs the seawater laboratory and takes her students out on the mudflats in all weathers.',
    currently:
      'Lena is writing a grant proposal to study the oyster beds in the bay and supervising student surveys of the harbour.',
    lifestyle: 'Lena goes to bed around 11pm and wakes up around 6:30am.',
    plan: 'Lena teaches at Saltmarsh College from 9am to 4pm on weekdays and works on her grant proposal in the evenings.',
    seed: [
      'Lena Okonjo lectures in marine biology at Saltmarsh College and lives with her husband Emeka Okonjo and their son Tayo Okonjo',
      'Lena is writing a grant proposal about the oyster beds in the bay',
      'Lena works with Imogen Lark, the dean of the college, and with Theo Brandt in the laboratory',
      'Lena supervises Wren Talbot’s survey of the harbour seabirds',
      'Lena wishes Tayo Okonjo would read more and sail less',
    ],
  },
  {
    first: 'Tayo',
    last: 'Okonjo',
    age: 12,
    home: 'okonjo',
    room: 1,
    slot: 0,
    sprite: 4,
    innate: 'adventurous, chatty, stubborn, funny',
    learned:
      'Tayo Okonjo is twelve and would live on a boat if his parents let him. He collects crab shells and knows every hiding place in Gull Park.',
    currently:
      'Tayo is learning to sail and building a raft with his best friend Niko in the Okonjos’ side yard.',
    lifestyle: 'Tayo goes to bed around 9pm and wakes up around 7am.',
    plan: 'Tayo studies his school lessons at home in the morning and plays in Gull Park or on the quay in the afternoon.',
    seed: [
      'Tayo Okonjo is twelve and lives with his parents Emeka Okonjo and Lena Okonjo',
      'Tayo is best friends with Niko Petrakis and they are building a raft together',
      'Tayo is learning to sail with his father on Saturdays',
      'Tayo thinks Maud Pennock’s garden has the best apples in town',
    ],
  },
  {
    first: 'Istvan',
    last: 'Varga',
    age: 61,
    home: 'varga',
    room: 0,
    slot: 0,
    sprite: 1,
    innate: 'gruff, honest, hard-working, sentimental',
    learned:
      'Istvan Varga runs Varga’s Grocer with his wife Mila and their son Dani. He came to Harrow Quay forty years ago and still bakes his mother’s rye bread every morning.',
    currently: 'Istvan is deciding whether to hand the grocer over to his son Dani next year.',
    lifestyle: 'Istvan goes to bed around 9:30pm and wakes up around 4:30am to bake.',
    plan: 'Istvan bakes bread from 5am and runs Varga’s Grocer from 8am to 6pm, Monday to Saturday.',
    seed: [
      'Istvan Varga runs Varga’s Grocer and lives in Varga House with his wife Mila Varga and their son Dani Varga',
      'Istvan bakes rye bread every morning from his mother’s recipe',
      'Istvan is thinking of handing the grocer over to Dani Varga next year but has not told him',
      'Istvan sells bread and cheese to Ottilie Marsh for the pub',
      'Istvan does not trust politicians, not even his customer Cedric Holloway',
    ],
  },
  {
    first: 'Mila',
    last: 'Varga',
    age: 58,
    home: 'varga',
    room: 0,
    slot: 1,
    sprite: 5,
    innate: 'warm, shrewd, talkative, patient',
    learned:
      'Mila Varga keeps the accounts at Varga’s Grocer and knows the news of the whole town before the newspaper does.',
    currently: 'Mila is knitting a scarf for every child in the harbour choir before winter.',
    lifestyle: 'Mila goes to bed around 10pm and wakes up around 6am.',
    plan: 'Mila works the till at Varga’s Grocer from 8am to 2pm and does the accounts in the afternoon.',
    seed: [
      'Mila Varga keeps the accounts at Varga’s Grocer and lives with her husband Istvan Varga and their son Dani Varga',
      'Mila hears all the town news at the till',
      'Mila suspects her son Dani Varga is lonely',
      'Mila is an old friend of Maud Pennock from the harbour choir',
    ],
  },
  {
    first: 'Dani',
    last: 'Varga',
    age: 27,
    home: 'varga',
    room: 1,
    slot: 0,
    sprite: 3,
    innate: 'reserved, diligent, dreamy, gentle',
    learned:
      'Dani Varga works in his family’s grocer and spends his free evenings restoring an old rowing boat. He studied accounting on the mainland and came home when his father hurt his back.',
    currently: 'Dani is wondering whether to stay in Harrow Quay or apply for a job in the city.',
    lifestyle: 'Dani goes to bed around 11pm and wakes up around 6am.',
    plan: 'Dani works at Varga’s Grocer from 8am to 6pm and works on his boat on the quay in the evening.',
    seed: [
      'Dani Varga works at Varga’s Grocer and lives with his parents Istvan Varga and Mila Varga',
      'Dani is restoring an old rowing boat on the quay',
      'Dani has noticed Priya Raman’s pottery in the shop window and would like to talk to her',
      'Dani is unsure whether he wants to run the grocer for the rest of his life',
    ],
  },
  {
    first: 'Sofia',
    last: 'Petrakis',
    age: 38,
    home: 'petrakis',
    room: 0,
    slot: 0,
    sprite: 6,
    innate: 'resourceful, brisk, caring, tired',
    learned:
      'Sofia Petrakis is the deputy clerk at the Town Hall and raises her son Niko on her own. She plays netball on Sunday mornings and is never late.',
    currently:
      'Sofia is helping Judith Holloway prepare the election and trying to find someone to watch Niko on Friday evening.',
    lifestyle: 'Sofia goes to bed around 11pm and wakes up around 6:15am.',
    plan: 'Sofia works at the Town Hall from 9am to 3pm and collects her son Niko afterwards.',
    seed: [
      'Sofia Petrakis is the deputy clerk at the Town Hall and lives in Petrakis House with her son Niko Petrakis',
      'Sofia works with Judith Holloway on the election arrangements',
      'Sofia finds Mayor Gideon Crane kind but forgetful',
      'Sofia needs someone to look after Niko Petrakis if she goes out on Friday evening',
    ],
  },
  {
    first: 'Niko',
    last: 'Petrakis',
    age: 10,
    home: 'petrakis',
    room: 1,
    slot: 0,
    sprite: 4,
    innate: 'imaginative, noisy, affectionate, brave',
    learned:
      'Niko Petrakis is ten and wants to be a lighthouse keeper. He draws maps of imaginary islands.',
    currently: 'Niko is building a raft with his best friend Tayo and hoping it will float.',
    lifestyle: 'Niko goes to bed around 8:30pm and wakes up around 7am.',
    plan: 'Niko does his lessons in the morning and plays with Tayo Okonjo in Gull Park in the afternoon.',
    seed: [
      'Niko Petrakis is ten and lives with his mother Sofia Petrakis',
      'Niko is building a raft with his best friend Tayo Okonjo',
      'Niko is a little afraid of the old man who lives in Quarrie Cottage',
      'Niko wants to see the lanterns at the pub on Friday',
    ],
  },
  {
    first: 'Gideon',
    last: 'Crane',
    age: 63,
    home: 'crane',
    room: 0,
    slot: 0,
    sprite: 2,
    innate: 'courteous, absent-minded, diplomatic, nostalgic',
    learned:
      'Gideon Crane has been mayor of Harrow Quay for twelve years. He is a widower who fills his evenings with crosswords and the town’s history.',
    currently:
      'Gideon is retiring at the election and quietly wondering who he would like to succeed him.',
    lifestyle: 'Gideon goes to bed around 10pm and wakes up around 7am.',
    plan: 'Gideon works at the Town Hall from 10am to 4pm and walks on the quay every evening.',
    seed: [
      'Gideon Crane is the mayor of Harrow Quay and lives alone in Crane House',
      'Gideon is retiring at the mayoral election on 5 November',
      'Gideon works with Judith Holloway and Sofia Petrakis at the Town Hall',
      'Gideon has heard that Cedric Holloway intends to run for mayor and is curious what he will promise',
    ],
  },
  {
    first: 'Hana',
    last: 'Mori',
    age: 29,
    home: 'mill',
    room: 0,
    slot: 0,
    sprite: 7,
    innate: 'calm, meticulous, dry, dependable',
    learned:
      'Hana Mori is the pharmacy assistant at Holloway Pharmacy and is studying at night to qualify as a pharmacist herself. She swims in the harbour all year round.',
    currently: 'Hana is preparing for her final pharmacy exam in December.',
    lifestyle: 'Hana goes to bed around 10pm and wakes up around 5:45am to swim.',
    plan: 'Hana works at Holloway Pharmacy from 8:30am to 5:30pm and studies for two hours every evening.',
    seed: [
      'Hana Mori works at Holloway Pharmacy and shares Mill Lane Flat with Priya Raman',
      'Hana works for Cedric Holloway and thinks he is the most honest man in town',
      'Hana is studying for her final pharmacy exam in December',
      'Hana swims in the harbour every morning before work',
    ],
  },
  {
    first: 'Priya',
    last: 'Raman',
    age: 33,
    home: 'mill',
    room: 1,
    slot: 0,
    sprite: 8,
    innate: 'creative, direct, independent, playful',
    learned:
      'Priya Raman is a potter who runs Raman Pottery from an old net loft on the high street. Her blue-glazed mugs are sold in half the shops in town.',
    currently:
      'Priya is making a set of glazed lanterns and trying to finish an order of bowls for a city shop.',
    lifestyle: 'Priya goes to bed around midnight and wakes up around 8am.',
    plan: 'Priya works in her pottery studio from 9am to 6pm and fires the kiln on Wednesdays.',
    seed: [
      'Priya Raman runs Raman Pottery and shares Mill Lane Flat with Hana Mori',
      'Priya is glazing a set of ceramic lanterns',
      'Priya buys secondhand art books from Felix Amsel and argues with him about them',
      'Priya has been asked by Ottilie Marsh to lend lanterns for a party at the pub',
    ],
  },
  {
    first: 'Felix',
    last: 'Amsel',
    age: 36,
    home: 'amsel',
    room: 0,
    slot: 0,
    sprite: 3,
    innate: 'bookish, witty, melancholy, generous',
    learned:
      'Felix Amsel owns Amsel Books, a secondhand bookshop, and reads a novel a day when trade is slow. He moved to Harrow Quay after his marriage ended.',
    currently:
      'Felix is cataloguing a donated library of sea charts and thinking of starting a reading group.',
    lifestyle: 'Felix goes to bed around 1am and wakes up around 9am.',
    plan: 'Felix opens Amsel Books from 10am to 6pm, closed on Sundays.',
    seed: [
      'Felix Amsel owns Amsel Books and lives in Amsel Cottage',
      'Felix is cataloguing a donated collection of old sea charts',
      'Felix enjoys arguing about art books with Priya Raman',
      'Felix buys roses from Maud Pennock’s garden for the shop window',
      'Felix wants to start a reading group and thinks Imogen Lark might join',
    ],
  },
  {
    first: 'Maud',
    last: 'Pennock',
    age: 71,
    home: 'pennock',
    room: 0,
    slot: 0,
    sprite: 5,
    innate: 'kindly, stubborn, proud, sharp-eyed',
    learned:
      'Maud Pennock is a retired schoolteacher who taught half the town to read. She tends the best roses in Harrow Quay and sings alto in the harbour choir.',
    currently:
      'Maud is preparing her allotment for winter and making paper lanterns for the choir’s Christmas concert.',
    lifestyle: 'Maud goes to bed around 9pm and wakes up around 6am.',
    plan: 'Maud works in her garden or at the allotments in the morning and visits friends in the afternoon.',
    seed: [
      'Maud Pennock is a retired schoolteacher who lives in Pennock Cottage',
      'Maud grows roses and keeps a plot at the allotments next to Judith Holloway',
      'Maud sings in the harbour choir with Mila Varga',
      'Maud makes paper lanterns every winter',
      'Maud taught Cedric Holloway to read when he was six',
    ],
  },
  {
    first: 'Imogen',
    last: 'Lark',
    age: 55,
    home: 'fellows',
    room: 0,
    slot: 0,
    sprite: 6,
    innate: 'authoritative, witty, demanding, fair',
    learned:
      'Professor Imogen Lark is the dean of Saltmarsh College and a historian of the North Sea trade. She is feared for her essay questions and loved for her lectures.',
    currently:
      'Imogen is fighting a proposal to merge the college with a larger university on the mainland.',
    lifestyle: 'Imogen goes to bed around 11:30pm and wakes up around 6am.',
    plan: 'Imogen lectures at Saltmarsh College on Tuesdays and Thursdays at 10am and runs college meetings every afternoon.',
    seed: [
      'Imogen Lark is the dean of Saltmarsh College and rents a room in the Fellows’ House',
      'Imogen works with Lena Okonjo and Theo Brandt at the college',
      'Imogen shares the Fellows’ House with Theo Brandt and Oskar Lindqvist',
      'Imogen is fighting a plan to merge the college with a mainland university',
      'Imogen thinks Pip Holloway asks the best questions in her lectures',
    ],
  },
  {
    first: 'Theo',
    last: 'Brandt',
    age: 34,
    home: 'fellows',
    room: 1,
    slot: 0,
    sprite: 2,
    innate: 'enthusiastic, scattered, inventive, sociable',
    learned:
      'Theo Brandt is the laboratory technician at Saltmarsh College. He can build any apparatus from scrap and keeps a tank of crabs named after philosophers.',
    currently: 'Theo is helping Jonah Reyes build a model tidal turbine.',
    lifestyle: 'Theo goes to bed around midnight and wakes up around 7:30am.',
    plan: 'Theo runs the college laboratory from 9am to 5pm on weekdays.',
    seed: [
      'Theo Brandt is the laboratory technician at Saltmarsh College and lives in the Fellows’ House',
      'Theo is helping Jonah Reyes build a model tidal turbine',
      'Theo works with Lena Okonjo in the seawater laboratory',
      'Theo thinks Imogen Lark is terrifying and brilliant',
    ],
  },
  {
    first: 'Oskar',
    last: 'Lindqvist',
    age: 40,
    home: 'fellows',
    room: 2,
    slot: 0,
    sprite: 1,
    innate: 'quiet, patient, observant, solitary',
    learned:
      'Oskar Lindqvist is the groundskeeper of Saltmarsh College and looks after Gull Park for the town. He talks more to the trees than to people.',
    currently: 'Oskar is planting bulbs in Gull Park for the spring.',
    lifestyle: 'Oskar goes to bed around 9:30pm and wakes up around 5:30am.',
    plan: 'Oskar works in the college grounds and in Gull Park from 7am to 3pm.',
    seed: [
      'Oskar Lindqvist is the groundskeeper of Saltmarsh College and Gull Park',
      'Oskar rents a room in the Fellows’ House with Imogen Lark and Theo Brandt',
      'Oskar is planting bulbs in Gull Park for the spring',
      'Oskar prefers working alone',
    ],
  },
  {
    first: 'Nadia',
    last: 'Firth',
    age: 31,
    home: 'lodgings',
    room: 2,
    slot: 0,
    sprite: 7,
    innate: 'curious, careful, friendly, homesick',
    learned:
      'Nadia Firth is a marine surveyor who has come to Harrow Quay for six months to map the seabed of the bay. She grew up far inland and has never lived by the sea.',
    currently:
      'Nadia arrived on Sunday, has taken a room at Quayside Lodgings, and does not yet know anyone in town.',
    lifestyle: 'Nadia goes to bed around 11pm and wakes up around 7am.',
    plan: 'Nadia surveys the bay from a boat in the mornings and writes up her data in the afternoons.',
    seed: [
      'Nadia Firth is a marine surveyor who arrived in Harrow Quay on Sunday',
      'Nadia has rented a room at Quayside Lodgings for six months',
      'Nadia is mapping the seabed of the bay',
      'Nadia does not know anyone in town yet and would like to make a friend',
    ],
  },
  {
    first: 'Silas',
    last: 'Quarrie',
    age: 67,
    home: 'quarrie',
    room: 0,
    slot: 0,
    sprite: 2,
    innate: 'private, gruff, honest, secretly kind',
    learned:
      'Silas Quarrie kept the lighthouse on the point for thirty years until it was automated. He now lives alone, mends fishing nets for money and rarely speaks to anyone.',
    currently:
      'Silas is mending nets and writing down everything he remembers about the lighthouse.',
    lifestyle: 'Silas goes to bed around 9pm and wakes up around 4am, an old lighthouse habit.',
    plan: 'Silas mends nets at home in the morning and walks along the quay at dusk.',
    seed: [
      'Silas Quarrie lives alone in Quarrie Cottage',
      'Silas kept the lighthouse on the point for thirty years',
      'Silas mends fishing nets for money',
      'Silas keeps to himself and knows no one in town by name',
    ],
  },
  {
    first: 'Kit',
    last: 'Sorensen',
    age: 26,
    home: 'lodgings',
    room: 3,
    slot: 0,
    sprite: 4,
    innate: 'restless, hardy, guarded, dryly funny',
    learned:
      'Kit Sorensen crews on a fishing boat that lands at Harrow Quay three days a week. Kit moves from harbour to harbour with the season and never stays anywhere long.',
    currently:
      'Kit has just signed on for the autumn season and is saving for a boat of their own.',
    lifestyle: 'Kit goes to bed around 8pm and wakes up around 3am on fishing days.',
    plan: 'Kit fishes on Monday, Wednesday and Friday mornings and sells the catch at the fish market.',
    seed: [
      'Kit Sorensen crews on a fishing boat for the autumn season',
      'Kit rents a room at Quayside Lodgings',
      'Kit is saving for a boat of their own',
      'Kit has not got to know anyone in town',
    ],
  },
];
