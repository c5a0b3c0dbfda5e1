/**
 * The labelled activity pairs the AGA cost layer's similarity settings are derived from (see
 * derive.ts and README.md): a header `label who a b`, then one pair a line, tab-separated, label
 * `same` or `different`. Written by hand for this repository (issue 22). Kept as a module so the
 * studio's simulation process, the CLI and the calibration script all read the same text from
 * their bundles (a run calibrates an embedder the shipped file does not know when it loads it).
 */
export const ACTIVITY_PAIRS_TSV = `label	who	a	b
same	baker	bake bread for the morning rush	make the day's loaves before the shop opens
same	baker	Maria is kneading dough in the bakery	Maria is working the bread dough at the bakery
same	baker	open the bakery for customers	unlock the shop and start serving people
same	baker	clean the ovens after closing	scrub the bakery ovens at the end of the day
same	baker	decorate a birthday cake	ice and decorate a cake for a birthday party
same	baker	Maria is taking a nap in the afternoon	Maria is having an afternoon rest
same	baker	deliver bread to the cafe	take the cafe's bread order over to them
different	baker	bake bread for the morning rush	clean the ovens after closing
different	baker	Maria is kneading dough in the bakery	Maria is counting the money in the till at the bakery
different	baker	open the bakery for customers	order flour from the mill
different	baker	decorate a birthday cake	deliver bread to the cafe
different	baker	eat breakfast at home	eat dinner at home
different	baker	Maria is sweeping the bakery floor	Maria is serving customers at the bakery counter
different	baker	bake croissants at dawn	close the bakery in the evening
same	student	study for the chemistry exam	revise chemistry before the test
same	student	Eddy is attending a lecture on music theory	Eddy is sitting in his music theory class
same	student	write an essay for history class	work on the history assignment paper
same	student	meet classmates for a group project	work on the team project with other students
same	student	Eddy is practising the piano in his room	Eddy is playing piano scales in his bedroom
same	student	go to the library to read	spend time reading at the library
same	student	Eddy is doing his homework at his desk	Eddy is working through his homework at the desk
different	student	study for the chemistry exam	play football with friends
different	student	Eddy is attending a lecture on music theory	Eddy is eating lunch in the college cafeteria
different	student	write an essay for history class	read a novel for fun
different	student	go to the library to read	go to the library to return books
different	student	Eddy is practising the piano in his room	Eddy is sleeping in his room
different	student	meet classmates for a group project	meet friends at the pub
different	student	attend the morning lecture	attend the evening concert
same	nurse	start the night shift at the hospital	begin working the overnight shift on the ward
same	nurse	Priya is checking on her patients	Priya is doing her rounds of the patients
same	nurse	hand over patient notes to the day nurse	brief the next shift about the patients
same	nurse	give patients their medication	hand out the medicines to the patients
same	nurse	Priya is changing a patient's bandage	Priya is dressing a patient's wound
same	nurse	sleep after the night shift	get some sleep after working all night
same	nurse	write up the patient charts	fill in the patients' records
different	nurse	start the night shift at the hospital	go home after the night shift
different	nurse	Priya is checking on her patients	Priya is drinking coffee in the staff room
different	nurse	give patients their medication	order new supplies for the ward
different	nurse	Priya is changing a patient's bandage	Priya is talking with a patient's family
different	nurse	write up the patient charts	clean the hospital ward
different	nurse	eat a meal before the shift	sleep after the shift
different	nurse	Priya is walking to the hospital	Priya is walking home from the hospital
same	retiree	tend the vegetable garden	look after the vegetables in the garden
same	retiree	George is feeding the ducks at the pond	George is throwing bread to the ducks by the pond
same	retiree	read the newspaper over coffee	have coffee while reading the morning paper
same	retiree	take an afternoon walk in the park	go for a stroll through the park after lunch
same	retiree	George is playing chess with a friend	George is having a game of chess with his friend
same	retiree	visit the grandchildren	go and see his grandchildren
same	retiree	do the crossword puzzle	work on the crossword in the paper
different	retiree	tend the vegetable garden	mow the lawn
different	retiree	George is feeding the ducks at the pond	George is fishing at the pond
different	retiree	read the newspaper over coffee	watch the evening news on television
different	retiree	take an afternoon walk in the park	take an afternoon nap at home
different	retiree	George is playing chess with a friend	George is playing cards with a friend
different	retiree	visit the grandchildren	visit the doctor
different	retiree	water the flowers in the morning	cut flowers for a vase in the evening
same	child	play with toy cars on the floor	play with his little cars on the rug
same	child	Lily is drawing a picture of her cat	Lily is making a drawing of her cat
same	child	go to school in the morning	head off to school for the day
same	child	have a bath before bed	take a bath before going to sleep
same	child	Lily is building a sandcastle on the beach	Lily is making a castle out of sand at the beach
same	child	listen to a bedtime story	be read a story before sleeping
same	child	play tag in the schoolyard	run around playing chase with friends at school
different	child	play with toy cars on the floor	tidy up the toys on the floor
different	child	Lily is drawing a picture of her cat	Lily is feeding her cat
different	child	go to school in the morning	come home from school in the afternoon
different	child	have a bath before bed	brush her teeth before bed
different	child	Lily is building a sandcastle on the beach	Lily is swimming in the sea at the beach
different	child	listen to a bedtime story	watch cartoons after school
different	child	eat lunch at school	do sums in maths class at school
same	fisher	take the boat out to fish	head out to sea on the fishing boat
same	fisher	Tomas is mending his fishing nets	Tomas is repairing the holes in his nets
same	fisher	sell the catch at the harbour market	sell today's fish at the market by the harbour
same	fisher	Tomas is hauling in the lobster pots	Tomas is pulling up his lobster traps
same	fisher	clean and gut the fish	prepare the fish by gutting and cleaning them
same	fisher	check the weather before sailing	look at the forecast before going out in the boat
same	fisher	wash down the deck of the boat	hose the boat deck clean
different	fisher	take the boat out to fish	paint the hull of the boat
different	fisher	Tomas is mending his fishing nets	Tomas is casting his fishing nets
different	fisher	sell the catch at the harbour market	buy groceries at the harbour market
different	fisher	Tomas is hauling in the lobster pots	Tomas is baiting the lobster pots
different	fisher	clean and gut the fish	cook fish for dinner
different	fisher	sail out at dawn	sail back to port at dusk
different	fisher	Tomas is drinking beer at the harbour pub	Tomas is unloading fish at the harbour
same	teacher	teach the morning maths lesson	give the class their maths lesson in the morning
same	teacher	Ms Okafor is marking essays at her desk	Ms Okafor is grading the students' essays at her desk
same	teacher	prepare tomorrow's lesson plan	plan the lessons for the next day
same	teacher	supervise the children at break time	watch over the pupils in the playground at recess
same	teacher	Ms Okafor is talking with a parent after school	Ms Okafor is meeting a pupil's parent after classes
same	teacher	take the class on a trip to the museum	lead a school outing to the museum
same	teacher	attend the staff meeting	go to the teachers' meeting
different	teacher	teach the morning maths lesson	teach the afternoon art lesson
different	teacher	Ms Okafor is marking essays at her desk	Ms Okafor is eating her lunch at her desk
different	teacher	prepare tomorrow's lesson plan	photocopy worksheets for the class
different	teacher	supervise the children at break time	tidy the classroom after school
different	teacher	attend the staff meeting	attend a yoga class
different	teacher	Ms Okafor is writing on the blackboard	Ms Okafor is erasing the blackboard
same	shopkeeper	stock the shelves with new goods	put the new stock out on the shelves
same	shopkeeper	Hamid is serving customers at the counter	Hamid is helping shoppers at the till
same	shopkeeper	count the day's takings	add up the money made today
same	shopkeeper	open the shop for the day	open up the store in the morning
same	shopkeeper	Hamid is unpacking a delivery of boxes	Hamid is opening the boxes from today's delivery
same	shopkeeper	do the weekly stock check	count everything in stock for the week
same	shopkeeper	put prices on the new items	label the new goods with their prices
different	shopkeeper	stock the shelves with new goods	sweep the floor of the shop
different	shopkeeper	Hamid is serving customers at the counter	Hamid is cleaning the counter
different	shopkeeper	open the shop for the day	close the shop for the night
different	shopkeeper	count the day's takings	pay the shop's bills at the bank
different	shopkeeper	Hamid is unpacking a delivery of boxes	Hamid is throwing out the empty boxes
different	shopkeeper	put prices on the new items	phone the supplier about a late order
same	farmer	milk the cows	do the morning milking of the herd
same	farmer	Ruth is feeding the chickens	Ruth is scattering grain for the hens
same	farmer	plough the north field	turn the soil in the north field with the tractor
same	farmer	collect eggs from the henhouse	gather the eggs laid by the hens
same	farmer	Ruth is fixing the fence by the barn	Ruth is repairing the broken fence next to the barn
same	farmer	harvest the potatoes	dig up the potato crop
different	farmer	milk the cows	move the cows to the far pasture
different	farmer	Ruth is feeding the chickens	Ruth is cleaning out the chicken coop
different	farmer	plough the north field	sell vegetables at the farmers market
different	farmer	collect eggs from the henhouse	repair the henhouse roof
different	farmer	harvest the potatoes	plant the potatoes
different	farmer	Ruth is driving the tractor to the field	Ruth is washing the tractor in the yard
same	barista	make coffee for customers	brew and serve coffee to the customers
same	barista	Jun is steaming milk for a latte	Jun is frothing milk to make a latte
same	barista	set up the cafe before opening	get the cafe ready to open
same	barista	wipe down the tables	clean the cafe tables with a cloth
same	barista	Jun is taking orders at the counter	Jun is writing down customers' orders at the counter
same	barista	work a shift at the cafe	work at the cafe
different	barista	make coffee for customers	drink a coffee on her break
different	barista	Jun is steaming milk for a latte	Jun is washing the milk jugs
different	barista	set up the cafe before opening	lock up the cafe after closing
different	barista	wipe down the tables	bake muffins for the cafe
different	barista	Jun is taking orders at the counter	Jun is chatting with a regular customer at a table
different	barista	work at the cafe	eat lunch at the cafe
same	doctor	see patients at the clinic	hold the clinic's appointments with patients
same	doctor	Dr Lenz is examining a child with a cough	Dr Lenz is checking a coughing child
same	doctor	write prescriptions for patients	prescribe medicine to patients
same	doctor	Dr Lenz is reading a medical journal	Dr Lenz is catching up on medical research articles
same	doctor	visit a sick patient at home	make a house call to an ill patient
different	doctor	see patients at the clinic	close the clinic for the day
different	doctor	Dr Lenz is examining a child with a cough	Dr Lenz is phoning the hospital about a patient
different	doctor	write prescriptions for patients	write a letter to a friend
different	doctor	visit a sick patient at home	visit the pharmacy to buy soap
different	doctor	morning appointments at the clinic	evening paperwork at the clinic
same	artist	paint a landscape in the studio	work on a landscape painting in her studio
same	artist	Isabella is sketching people in the park	Isabella is drawing passers-by in the park
same	artist	sell paintings at the gallery	show her paintings to buyers at the gallery
same	artist	clean the paint brushes	wash out the brushes after painting
same	artist	Isabella is stretching a new canvas	Isabella is preparing a fresh canvas for painting
different	artist	paint a landscape in the studio	tidy the studio
different	artist	Isabella is sketching people in the park	Isabella is having a picnic in the park
different	artist	sell paintings at the gallery	visit another artist's exhibition
different	artist	clean the paint brushes	buy new paint brushes
different	artist	Isabella is painting a portrait	Isabella is framing a portrait
same	office worker	answer emails at the office	reply to work emails at her desk
same	office worker	Sam is in a meeting with his team	Sam is attending a team meeting
same	office worker	commute to work by bus	take the bus to the office
same	office worker	write the quarterly report	work on the report for the quarter
same	office worker	Sam is eating a sandwich at his desk	Sam is having lunch at his desk
same	office worker	go home after work	head home when the work day ends
different	office worker	answer emails at the office	print documents at the office
different	office worker	Sam is in a meeting with his team	Sam is giving a presentation to clients
different	office worker	commute to work by bus	commute home by bus
different	office worker	write the quarterly report	read the news online
different	office worker	Sam is eating a sandwich at his desk	Sam is fixing the printer near his desk
same	everyone	wake up and complete the morning routine	get up, wash and get dressed for the day
same	everyone	Klaus is waking up and completing his morning routine	Klaus is getting ready for the day
same	everyone	eat breakfast	have the morning meal
same	everyone	go to bed	turn in for the night
same	everyone	Anna is sleeping	Anna is asleep in bed
same	everyone	cook dinner in the kitchen	make the evening meal in the kitchen
same	everyone	take a shower	wash in the shower
same	everyone	do the laundry	wash the clothes
same	everyone	walk the dog around the block	take the dog out for a walk around the neighbourhood
same	everyone	buy groceries at the supermarket	do the food shopping at the supermarket
same	everyone	Anna is reading a book on the sofa	Anna is curled up on the sofa with a book
same	everyone	have lunch with a friend	eat lunch together with a friend
same	everyone	watch television in the evening	watch TV after dinner
same	everyone	relax at home	unwind at home
different	everyone	wake up and complete the morning routine	get ready for bed
different	everyone	eat breakfast	eat dinner
different	everyone	go to bed	get out of bed
different	everyone	Anna is sleeping	Anna is cooking
different	everyone	cook dinner in the kitchen	wash the dishes in the kitchen
different	everyone	take a shower	clean the shower
different	everyone	do the laundry	do the ironing
different	everyone	walk the dog around the block	feed the dog
different	everyone	buy groceries at the supermarket	work a shift at the supermarket
different	everyone	Anna is reading a book on the sofa	Anna is vacuuming the sofa
different	everyone	have lunch with a friend	have an argument with a friend
different	everyone	watch television in the evening	repair the television
different	everyone	Klaus is waking up and completing his morning routine	Klaus is writing his research paper at the library
different	everyone	Klaus is having breakfast at the cafe	Klaus is working on his paper at the cafe
same	librarian	shelve the returned books	put the returned books back on the shelves
same	librarian	Agnes is helping a reader find a book	Agnes is assisting a visitor to locate a book
same	librarian	run the children's story hour	read stories to the children at the library
same	librarian	catalogue new books	enter the new books into the library catalogue
different	librarian	shelve the returned books	repair damaged books
different	librarian	Agnes is helping a reader find a book	Agnes is stamping a reader's library card
different	librarian	run the children's story hour	lock up the library
different	librarian	catalogue new books	order new books from the publisher
same	mechanic	fix a car's brakes at the garage	repair the brakes on a car in the workshop
same	mechanic	Bruno is changing the oil in a van	Bruno is doing an oil change on a van
same	mechanic	order spare parts for the repairs	buy the replacement parts needed for the repairs
same	mechanic	Bruno is washing the grease off his hands	Bruno is cleaning the oil from his hands
different	mechanic	fix a car's brakes at the garage	paint a car at the garage
different	mechanic	Bruno is changing the oil in a van	Bruno is test driving a van
different	mechanic	order spare parts for the repairs	give a customer the bill for the repairs
different	mechanic	open the garage in the morning	close the garage in the evening
same	musician	practise the violin	rehearse on the violin
same	musician	Rosa is playing guitar at the pub	Rosa is performing songs with her guitar at the pub
same	musician	write a new song	compose a new piece of music
same	musician	rehearse with the band	practise together with the band
different	musician	practise the violin	tune the violin
different	musician	Rosa is playing guitar at the pub	Rosa is drinking at the pub
different	musician	write a new song	listen to records
different	musician	rehearse with the band	pack up the band's equipment
same	priest	lead the Sunday service	hold the Sunday church service
same	priest	Father Brennan is writing his sermon	Father Brennan is preparing the sermon for Sunday
same	priest	visit the sick in the parish	go to see the ill people of the parish
different	priest	lead the Sunday service	clean the church after the service
different	priest	Father Brennan is writing his sermon	Father Brennan is ringing the church bell
different	priest	visit the sick in the parish	visit the parish school
same	bartender	serve drinks at the pub	pour drinks for the pub's customers
same	bartender	Declan is changing the beer barrel	Declan is swapping in a new keg of beer
same	bartender	close the pub at midnight	shut the pub for the night at twelve
different	bartender	serve drinks at the pub	wash glasses at the pub
different	bartender	Declan is changing the beer barrel	Declan is ordering beer from the brewery
different	bartender	close the pub at midnight	open the pub at noon
same	parent	take the children to school	drop the kids off at school
same	parent	Lena is helping her son with homework	Lena is going over her son's homework with him
same	parent	pack the children's lunches	make packed lunches for the kids
same	parent	put the baby to sleep	get the baby down for a nap
different	parent	take the children to school	pick the children up from school
different	parent	Lena is helping her son with homework	Lena is scolding her son for his homework
different	parent	pack the children's lunches	pack the family's suitcases
different	parent	put the baby to sleep	feed the baby
same	postman	deliver the post on his route	walk his round delivering letters
same	postman	sort the letters at the post office	sort the mail at the post office
different	postman	deliver the post on his route	collect the post from the postbox
different	postman	sort the letters at the post office	sell stamps at the post office
same	athlete	go for a morning run	jog in the morning
same	athlete	Kofi is lifting weights at the gym	Kofi is doing weight training at the gym
same	athlete	stretch after training	do stretches to cool down after practice
different	athlete	go for a morning run	go for a morning swim
different	athlete	Kofi is lifting weights at the gym	Kofi is showering at the gym
different	athlete	stretch after training	eat after training
same	everyone	make toast and eat breakfast	have toast for breakfast
same	everyone	cook soup and eat lunch	make some soup and have it for lunch
same	everyone	make tea and eat breakfast	have breakfast with a cup of tea
same	everyone	read a book and eat dinner	eat dinner while reading a book
same	nurse	eat lunch in the hospital canteen	have lunch at the hospital cafeteria
same	farmer	eat a big breakfast in the farmhouse kitchen	have a large breakfast in the farm kitchen
same	parent	cook dinner for the children	make the kids their dinner
same	musician	have supper with the band	eat supper together with the band
different	everyone	make toast and eat breakfast	make toast and eat lunch
different	everyone	cook soup and eat breakfast	cook soup and eat lunch
different	everyone	make tea and eat breakfast	make tea and eat lunch
different	everyone	read a book and eat dinner	read a book and eat breakfast
different	nurse	eat lunch in the hospital canteen	eat dinner in the hospital canteen
different	farmer	eat a big breakfast in the farmhouse kitchen	eat a big dinner in the farmhouse kitchen
different	parent	cook dinner for the children	cook breakfast for the children
different	musician	have supper with the band	have lunch with the band
different	barista	eat breakfast at the cafe	eat lunch at the cafe
different	teacher	eat lunch in the staff room	eat breakfast in the staff room
different	fisher	cook fish for lunch	cook fish for dinner
different	retiree	have breakfast in the garden	have supper in the garden
`;
