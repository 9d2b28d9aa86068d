// The rules page: our table's rules (docs/rules.md, preset "nepal"), the hand ranking, the words
// players use, the questions they ask and a few tips, in English and Nepali.
//
// The tips' figures were computed once with the project's own evaluator, like this:
//
//   .venv/bin/python - <<'EOF'
//   from itertools import combinations
//   import numpy as np
//   from teenpatti.engine.evaluate import Evaluator, Category
//   from teenpatti.engine.bulk import strength_array
//   from teenpatti.odds import hand_odds
//   ev = Evaluator.get()                                   # our table's ranking
//   hands = list(combinations(range(52), 3))               # all 22,100 hands
//   # shares: count ev.category(h) over `hands`             -> 16,440 high cards (74.4%) ...
//   # heads-up: mean of hand_odds(h, 1).win over the hands  -> ace high 67.1%, pair 82.8%;
//   #           hand_odds(h, 2) for two opponents           -> pair 68.8%
//   # four players: 1,000,000 deals of 12 cards from np.random.default_rng(2024), strengths from
//   #   strength_array(); "best" = no other hand better     -> pair 56.9%, colour+ 87.7% ...
//   EOF
//
// Exact counts and heads-up figures are exact; the four-player figures carry about ±0.2% of
// sampling error and are rounded to whole percents.

export const RULES = [
  {
    id: "glance",
    title: { en: "The game at a glance", ne: "खेल छोटकरीमा" },
    body: [
      {
        en: "Two to six players, one pack of 52 cards, no jokers. Each player gets three cards and decides how long to stay in: blind or seen, until one player is left or the cards are turned over.",
        ne: "२ देखि ६ जना खेलाडी, ५२ पत्तीको एउटा गड्डी, जोकर हुँदैन। हरेक खेलाडीले तीन पत्ती पाउनुहुन्छ र कतिन्जेल टिक्ने भनेर आफैँ निर्णय गर्नुहुन्छ: ब्लाइन्ड वा सिन भएर, एक जना मात्र बाँकी नरहुन्जेल वा तास नखोलिउन्जेल।",
      },
      {
        en: "Everyone starts each game with 1,000 play chips. They are only the score: they cannot be bought or sold and start again from 1,000 every game. A game is 10, 20 or 30 hands; the most chips after the last hand wins.",
        ne: "हरेक खेलको सुरुमा सबैले १,००० खेल-चिप्स पाउनुहुन्छ। यी हिसाब राख्न मात्र हुन्: किन्न वा बेच्न मिल्दैन, र हरेक खेलमा फेरि १,००० बाट सुरु हुन्छ। एउटा खेल १०, २० वा ३० बाजीको हुन्छ; अन्तिम बाजीपछि सबैभन्दा धेरै चिप्स हुनेको जित हुन्छ।",
      },
    ],
  },
  {
    id: "deal",
    title: { en: "The boot and the deal", ne: "बुट र तास बाँड्ने" },
    body: [
      {
        en: "Before every hand, everyone with chips puts the boot in the pot (10 chips unless the host chose 5, 20 or 50). The dealer gives three cards face down, one at a time, starting with the player on the dealer's right.",
        ne: "हरेक बाजीअघि चिप्स भएका सबैले पोटमा बुट हाल्नुहुन्छ (होस्टले ५, २० वा ५० नछानेसम्म १० चिप्स)। डिलरले आफ्नो दायाँ बस्ने खेलाडीबाट सुरु गरेर हरेकलाई एक-एक गरी तीन-तीन पत्ती घोप्टो बाँड्नुहुन्छ।",
      },
      {
        en: "Play passes to the right (anticlockwise), as at most tables in Nepal: the player on the dealer's right acts first, and the deal moves one seat to the right after each hand.",
        ne: "नेपालका धेरैजसो टेबलमा जस्तै पालो दायाँतिर (घडीको उल्टो दिशामा) जान्छ: डिलरको दायाँ बस्ने खेलाडीले पहिले खेल्नुहुन्छ, र हरेक बाजीपछि बाँड्ने पालो एक सिट दायाँ सर्छ।",
      },
    ],
  },
  {
    id: "blind",
    title: { en: "Blind or seen", ne: "ब्लाइन्ड वा सिन" },
    body: [
      {
        en: "You start every hand blind: your cards stay face down, even to you. A blind chaal costs the stake, which starts at the boot.",
        ne: "हरेक बाजी तपाईं ब्लाइन्ड भएर सुरु गर्नुहुन्छ: तास घोप्टै रहन्छ, तपाईंले आफैँ पनि देख्नुहुन्न। ब्लाइन्डको चाल दाउ बराबर हुन्छ, र दाउ बुटबाट सुरु हुन्छ।",
      },
      {
        en: "On your turn you may tap See cards. You are then seen for the rest of the hand and your chaal costs twice the stake. Looking is free and does not use up your turn.",
        ne: "आफ्नो पालोमा “तास हेर्नुहोस्” थिच्न सक्नुहुन्छ। त्यसपछि बाजीभर तपाईं सिन हुनुहुन्छ र चाल दाउको दोब्बर हुन्छ। हेर्न सित्तैमा हुन्छ र पालो पनि खेर जाँदैन।",
      },
    ],
  },
  {
    id: "bets",
    title: { en: "Chaal, raise and pack", ne: "चाल, रेज र प्याक" },
    body: [
      {
        en: "Chaal: pay your price (the stake when blind, twice the stake when seen) and stay in.",
        ne: "चाल: आफूले तिर्नुपर्ने चिप्स तिर्नुहोस् (ब्लाइन्ड भए दाउ, सिन भए दाउको दोब्बर) र खेलमा रहनुहोस्।",
      },
      {
        en: "Raise: pay twice your chaal; the stake doubles for everyone after you. The stake stops at eight boots: with a boot of 10, a blind chaal never costs more than 80 and a seen chaal never more than 160.",
        ne: "रेज: आफ्नो चालको दोब्बर तिर्नुहोस्; तपाईंपछिका सबैका लागि दाउ दोब्बर हुन्छ। दाउ ८ बुटमा रोकिन्छ: बुट १० भए ब्लाइन्डको चाल ८० भन्दा र सिनको चाल १६० भन्दा बढी कहिल्यै हुँदैन।",
      },
      {
        en: "Pack: give up the hand. What you have put in stays in the pot. When everyone else has packed, the last player takes the pot without showing.",
        ne: "प्याक: बाजी छोड्नुहोस्। तपाईंले हालेका चिप्स पोटमै रहन्छन्। अरू सबैले प्याक गरेपछि बाँकी रहनुभएको खेलाडीले तास नदेखाई पोट लिनुहुन्छ।",
        plays: ["pack-last-player-takes-pot-unseen"],
      },
    ],
  },
  {
    id: "show",
    title: { en: "Show", ne: "सो" },
    body: [
      {
        en: "When only two players are left, the player on turn may pay their chaal and ask for a show. Both hands are turned over and the better one takes the pot. On equal hands, the player who asked loses, unless the chaal paid for the show brings the pot to its limit: then it is the pot limit's showdown, and equal hands share the pot.",
        ne: "२ जना मात्र बाँकी हुँदा पालो भएको खेलाडीले आफ्नो चाल तिरेर सो माग्न सक्नुहुन्छ। दुवैको तास खोलिन्छ र ठूलो तासले पोट लिन्छ। तास बराबर भए सो माग्नेको हार हुन्छ; तर सोका लागि चाल तिर्दा पोट सीमामा पुग्यो भने त्यो पोटको सीमामा हुने सो हो, र बराबर तास हुनेले पोट बाँडेर लिनुहुन्छ।",
        plays: ["show-seen-vs-seen", "show-tie-asker-loses", "potlimit-show-reaches-limit-ties-share-nepal"],
      },
      {
        en: "A blind player may ask anyone for a show. A seen player may ask only a seen player; against a blind player, a seen player must chaal, raise or pack.",
        ne: "ब्लाइन्ड खेलाडीले जो-कोहीसँग सो माग्न सक्नुहुन्छ। सिन खेलाडीले सिन खेलाडीसँग मात्र माग्न सक्नुहुन्छ; ब्लाइन्डसँग सिन खेलाडीले चाल, रेज वा प्याक मात्र गर्न पाउनुहुन्छ।",
      },
    ],
  },
  {
    id: "sideshow",
    title: { en: "Side show", ne: "साइड सो" },
    body: [
      {
        en: "With three or more players still in, a seen player may ask the player just before them for a side show, if that player is seen too. It costs a seen chaal.",
        ne: "३ वा बढी खेलाडी बाँकी हुँदा सिन खेलाडीले आफूभन्दा ठीक अघिको खेलाडीसँग, उहाँ पनि सिन हुनुहुन्छ भने, साइड सो माग्न सक्नुहुन्छ। यसमा सिनको एउटा चाल तिर्नुपर्छ।",
      },
      {
        en: "If the other player accepts, only the two of them see both hands, and the lower hand packs (on equal hands, the one who asked packs). If they decline, play goes on as if a chaal had been made.",
        ne: "अर्को खेलाडीले “हुन्छ” भन्नुभए ती दुईले मात्र एकअर्काको तास हेर्नुहुन्छ, र सानो तास हुनेले प्याक गर्नुपर्छ (बराबर भए माग्नेले)। “हुँदैन” भन्नुभए चाल भएजस्तै खेल अघि बढ्छ।",
        plays: ["sideshow-accept-asker-wins", "sideshow-accept-asker-loses", "sideshow-accept-tie-asker-packs", "sideshow-decline-turn-passes"],
      },
    ],
  },
  {
    id: "limits",
    title: { en: "Pot limit and all in", ne: "पोटको सीमा र अल इन" },
    body: [
      {
        en: "When the pot reaches 100 boots (1,000 chips with a boot of 10), betting stops and everyone still in shows. The best hand takes the pot; equal best hands share it.",
        ne: "पोट १०० बुट (बुट १० भए १,००० चिप्स) पुगेपछि चाल हाल्न रोकिन्छ र बाँकी सबैको तास खोलिन्छ। सबैभन्दा ठूलो तासले पोट लिन्छ; बराबर भए बाँडिन्छ।",
        plays: ["potlimit-nepal-default-1000", "potlimit-shared-odd-chip-anticlockwise"],
      },
      {
        en: "If you cannot afford your chaal, you may go all in with what you have left, and everyone still in shows at once. Going all in, you can win from each player only as much as you put in yourself; the rest is a side pot for the best of the others.",
        ne: "चाल तिर्ने चिप्स नभए भएजति सबै हालेर अल इन जान सक्नुहुन्छ, र बाँकी सबैको तास तुरुन्तै खोलिन्छ। अल इन जाँदा हरेक खेलाडीबाट तपाईंले आफूले हालेजति मात्र जित्न सक्नुहुन्छ; बाँकी साइड पोट अरूमध्ये सबैभन्दा ठूलो तासको हुन्छ।",
      },
    ],
  },
  {
    id: "winning",
    title: { en: "Winning the game", ne: "खेल जित्ने" },
    body: [
      {
        en: "A player with no chips left sits out the rest of the game. The game ends early when one player holds every chip; otherwise the player with the most chips after the last hand wins, and equal chips share the place.",
        ne: "चिप्स सकिएको खेलाडी खेलको बाँकी भागमा बाहिर बस्नुहुन्छ। एकै जनासँग सबै चिप्स पुगे खेल चाँडै सकिन्छ; नत्र अन्तिम बाजीपछि सबैभन्दा धेरै चिप्स हुनेको जित हुन्छ, र बराबर चिप्स भए स्थान बाँडिन्छ।",
      },
      {
        en: "Some groups play other house rules (muflis, jokers, a split pot on equal shows…). The host can choose them under Advanced when opening a table, and the table shows which ones it uses.",
        ne: "कतिपय साथीहरू आफ्नै नियमले खेल्नुहुन्छ (मुफ्लिस, जोकर, बराबर सोमा पोट बाँड्ने…)। टेबल खोल्दा होस्टले “थप” भित्र ती नियम छान्न सक्नुहुन्छ, र टेबलमा कुन नियम चलेको छ भनेर देखिन्छ।",
      },
    ],
  },
];

export const RANKING = [
  {
    cat: "trail",
    cards: ["As", "Ah", "Ac"],
    en: "Three cards of one rank. Three aces are the best hand of all, three twos the lowest trail.",
    ne: "एउटै अङ्कका तीन पत्ती। तीन एक्का सबैभन्दा ठूलो तास हो, तीन दुक्की सबैभन्दा सानो ट्रायल।",
    other: { en: "Trial", ne: "ट्रायल" },
  },
  {
    cat: "pure_sequence",
    cards: ["9h", "8h", "7h"],
    en: "Three cards in a row, all of one suit.",
    ne: "एउटै रङका, लगातार तीन पत्ती।",
    other: { en: "Double run", ne: "डबल रन" },
  },
  {
    cat: "sequence",
    cards: ["9h", "8s", "7d"],
    en: "Three cards in a row, suits mixed.",
    ne: "लगातार तीन पत्ती, रङ फरक-फरक।",
    other: { en: "Run", ne: "रन" },
  },
  {
    cat: "colour",
    cards: ["Kc", "9c", "4c"],
    en: "Three cards of one suit, not in a row.",
    ne: "एउटै रङका तीन पत्ती, लगातार होइनन्।",
    other: null,
  },
  {
    cat: "pair",
    cards: ["Qd", "Qs", "3h"],
    en: "Two cards of one rank. The pair is compared first, then the odd card.",
    ne: "एउटै अङ्कका दुई पत्ती। पहिले जुट दाँजिन्छ, अनि बाँकी पत्ती।",
    other: { en: "Jute", ne: "जुट" },
  },
  {
    cat: "high_card",
    cards: ["As", "Td", "6c"],
    en: "Anything else: compare the highest card, then the next, then the last.",
    ne: "माथिका कुनै पनि होइन: पहिले सबैभन्दा ठूलो पत्ती दाँजिन्छ, अनि अर्को, अनि अन्तिम।",
    other: null,
  },
];

export const RANKING_COUNTS = {
  trail: [52, "0.24%"],
  pure_sequence: [48, "0.22%"],
  sequence: [720, "3.26%"],
  colour: [1096, "4.96%"],
  pair: [3744, "16.94%"],
  high_card: [16440, "74.39%"],
};

export const RUNS_NOTE = {
  cards: [
    ["As", "Kd", "Qc"],
    ["Ah", "2s", "3d"],
    ["Kc", "Qh", "Js"],
  ],
  en: "Runs, from the top: A-K-Q, then A-2-3, then K-Q-J and so on down to 4-3-2. K-A-2 is not a run. Suits never break a tie: two equal hands are equal.",
  ne: "रनहरू, माथिबाट: A-K-Q, त्यसपछि A-२-३, अनि K-Q-J हुँदै ४-३-२ सम्म। K-A-२ रन होइन। रङले बराबरी छुट्याउँदैन: बराबर तास बराबर नै हुन्।",
};

export const WORDS = [
  { word: "Teen patti", ne: "तीन पत्ती", en: "Three cards: the name of the game.", neMeaning: "तीन पत्ती: खेलको नाम।" },
  { word: "Flush", ne: "फ्लस", en: "What most players in Nepal call Teen Patti.", neMeaning: "नेपालमा धेरैले तीन पत्तीलाई भन्ने नाम।" },
  { word: "Boot", ne: "बुट", en: "The chips everyone puts in the pot before the deal.", neMeaning: "तास बाँड्नुअघि सबैले पोटमा हाल्ने चिप्स।" },
  { word: "Chaal", ne: "चाल", en: "A bet to stay in: the stake when blind, twice the stake when seen.", neMeaning: "खेलमा रहन हाल्ने चिप्स: ब्लाइन्ड भए दाउ बराबर, सिन भए दाउको दोब्बर।" },
  { word: "Blind", ne: "ब्लाइन्ड", en: "Playing without having looked at your cards.", neMeaning: "आफ्नो तास नहेरी खेल्नु।" },
  { word: "Seen", ne: "सिन", en: "Having looked at your cards; a seen chaal costs double.", neMeaning: "तास हेरिसकेको; सिनको चाल दोब्बर पर्छ।" },
  { word: "Pack", ne: "प्याक", en: "To give up the hand.", neMeaning: "बाजी छोड्नु।" },
  { word: "Show", ne: "सो", en: "With two players left, both hands turned over to see who wins.", neMeaning: "२ जना बाँकी हुँदा कसले जित्छ हेर्न दुवैको तास खोल्नु।" },
  { word: "Side show", ne: "साइड सो", en: "A private comparison with the player before you; the lower hand packs.", neMeaning: "आफूभन्दा अघिको खेलाडीसँग २ जनाबीच मात्र तास दाँज्नु; सानो तास हुनेले प्याक गर्नुपर्छ।" },
  { word: "Trial", ne: "ट्रायल", en: "Trail: three cards of one rank, the top kind of hand.", neMeaning: "एउटै अङ्कका तीन पत्ती: सबैभन्दा माथिको तास।" },
  { word: "Double run", ne: "डबल रन", en: "Pure sequence: three cards in a row in one suit.", neMeaning: "एउटै रङका लगातार तीन पत्ती।" },
  { word: "Run", ne: "रन", en: "Sequence: three cards in a row, suits mixed.", neMeaning: "रङ फरक भएका लगातार तीन पत्ती।" },
  { word: "Colour", ne: "कलर", en: "Three cards of one suit, not in a row.", neMeaning: "एउटै रङका तीन पत्ती, लगातार होइनन्।" },
  { word: "Jute", ne: "जुट", en: "A pair: two cards of one rank.", neMeaning: "एउटै अङ्कका दुई पत्ती।" },
  { word: "Stake", ne: "दाउ", en: "The running price of staying in; it starts at the boot.", neMeaning: "खेलमा रहन अहिले तिर्नुपर्ने चिप्स; बुटबाट सुरु हुन्छ।" },
  { word: "Pot", ne: "पोट", en: "All the chips put in this hand; the winner takes it.", neMeaning: "यो बाजीमा हालिएका सबै चिप्स; जित्नेले लिन्छ।" },
];

export const FAQ = [
  {
    q: { en: "What is the highest hand?", ne: "सबैभन्दा ठूलो तास कुन हो?" },
    a: {
      en: "Three aces. Any trail beats every other kind of hand, and three aces is the highest trail.",
      ne: "तीन एक्का। जुनसुकै ट्रायलले अरू हरेक तास जित्छ, र तीन एक्का सबैभन्दा ठूलो ट्रायल हो।",
    },
  },
  {
    q: { en: "Is A-2-3 higher than K-Q-J?", ne: "के A-२-३, K-Q-J भन्दा ठूलो हो?" },
    a: {
      en: "Yes. A-K-Q is the highest run, A-2-3 the second, then K-Q-J. K-A-2 is not a run at all.",
      ne: "हो। A-K-Q सबैभन्दा ठूलो रन हो, A-२-३ दोस्रो, अनि K-Q-J। K-A-२ त रन नै होइन।",
    },
  },
  {
    q: { en: "What is the difference between blind and seen?", ne: "ब्लाइन्ड र सिनमा के फरक छ?" },
    a: {
      en: "A blind player has not looked and pays the stake to stay in; a seen player has looked and pays twice the stake. You can go from blind to seen on your turn, never back.",
      ne: "ब्लाइन्ड खेलाडीले तास हेर्नुभएको छैन र खेलमा रहन दाउ तिर्नुहुन्छ; सिन खेलाडीले हेरिसक्नुभएको छ र दाउको दोब्बर तिर्नुहुन्छ। आफ्नो पालोमा ब्लाइन्डबाट सिन हुन सकिन्छ, फेरि ब्लाइन्ड हुन सकिँदैन।",
    },
  },
  {
    q: { en: "Who wins a show when both hands are equal?", ne: "सोमा दुवैको तास बराबर भए कसले जित्छ?" },
    a: {
      en: "The player who did not ask. Suits never break a tie, so equal hands go against the player who asked for the show; but when the chaal paid for the show brings the pot to its limit, it is the pot limit's showdown, and equal hands share the pot.",
      ne: "सो नमाग्नेले। रङले बराबरी छुट्याउँदैन, त्यसैले तास बराबर हुँदा सो माग्नेको हार हुन्छ; तर सोका लागि चाल तिर्दा पोट सीमामा पुग्यो भने त्यो पोटको सीमामा हुने सो हो, र बराबर तास हुनेले पोट बाँडेर लिनुहुन्छ।",
      plays: ["show-tie-asker-loses", "potlimit-show-reaches-limit-ties-share-nepal"],
    },
  },
  {
    q: { en: "How does a side show work?", ne: "साइड सो कसरी हुन्छ?" },
    a: {
      en: "With three or more still in, a seen player asks the seen player just before them. If they accept, the two compare privately and the lower hand packs; on equal hands the asker packs.",
      ne: "३ वा बढी खेलाडी बाँकी हुँदा सिन खेलाडीले आफूभन्दा ठीक अघिको सिन खेलाडीसँग साइड सो माग्नुहुन्छ। उहाँले “हुन्छ” भन्नुभए २ जनाले मात्र तास दाँज्नुहुन्छ र सानो तास हुनेले प्याक गर्नुपर्छ; बराबर भए माग्नेले।",
      plays: ["sideshow-accept-asker-loses", "sideshow-accept-tie-asker-packs"],
    },
  },
  {
    q: { en: "Can we play together on our phones?", ne: "के हामी आ-आफ्नो फोनमा सँगै खेल्न सक्छौँ?" },
    a: {
      en: "Yes. Choose Play with friends and share the link, the code or the QR code. Everyone plays on their own phone, and the computer plays any empty seat. No account or download is needed.",
      ne: "सक्नुहुन्छ। “साथीहरूसँग खेल्नुहोस्” छानेर लिङ्क, कोड वा QR कोड पठाउनुहोस्। सबैले आ-आफ्नो फोनमा खेल्नुहुन्छ, र खाली सिटमा कम्प्युटर खेल्छ। खाता वा डाउनलोड चाहिँदैन।",
    },
  },
  {
    q: { en: "Are the chips worth anything?", ne: "के चिप्सले केही किन्न मिल्छ?" },
    a: {
      en: "No. Everyone gets the same 1,000 play chips at the start of every game. They cannot be bought, sold or carried over: they are just the score.",
      ne: "मिल्दैन। हरेक खेलको सुरुमा सबैले उही १,००० खेल-चिप्स पाउनुहुन्छ। किन्न, बेच्न वा अर्को खेलमा लैजान मिल्दैन: यी हिसाब राख्न मात्र हुन्।",
    },
  },
  {
    q: { en: "Is Teen Patti the same as Flush?", ne: "के तीन पत्ती र फ्लस एउटै हो?" },
    a: {
      en: "Yes. In Nepal it is usually called Flush (or Flash); in India, Teen Patti, which means three cards. It is a cousin of the British game Three-Card Brag.",
      ne: "हो। नेपालमा यसलाई प्रायः फ्लस (वा फ्ल्यास) भनिन्छ; भारतमा तीन पत्ती, अर्थात् तीन वटा पत्ती। बेलायतको थ्री-कार्ड ब्र्याग खेल पनि यस्तै हो।",
    },
  },
  {
    q: { en: "What happens if I lose my connection?", ne: "इन्टरनेट टुटे के हुन्छ?" },
    a: {
      en: "The page reconnects by itself and puts you back in your seat, even after a reload. If you stay away too long, the computer plays your seat until you are back.",
      ne: "पेज आफैँ फेरि जोडिन्छ र तपाईंलाई आफ्नै सिटमा फर्काउँछ, पेज फेरि खोल्दा पनि। धेरै बेर टाढा रहे तपाईं नफर्कुन्जेल कम्प्युटरले तपाईंको सिट खेल्छ।",
    },
  },
];

export const TIPS = [
  {
    en: "Three hands in four are only a high card (16,440 of the 22,100 possible hands, 74%); a pair or better comes about once in four deals (26%). So staying blind for a round or two is cheap, and your unseen cards are usually no worse than anyone else's.",
    ne: "४ मध्ये ३ बाजीमा तास हाइ कार्ड मात्र हुन्छ (सम्भावित २२,१०० तासमध्ये १६,४४०, ७४%); जुट वा त्योभन्दा माथि करिब ४ बाजीमा एक पटक आउँछ (२६%)। त्यसैले एक-दुई फेरो ब्लाइन्ड रहनु सस्तो हुन्छ, र नहेरेको तास प्रायः अरूकोभन्दा कमजोर हुँदैन।",
  },
  {
    en: "At a table of four, a pair is the best hand 57% of the time: a pair of twos only 41%, a pair of aces 75%. A colour or better is best 88% of the time, a run or better 95%.",
    ne: "४ जनाको टेबलमा जुट ५७% पटक सबैभन्दा ठूलो तास हुन्छ: दुक्कीको जुट ४१% मात्र, एक्काको जुट ७५%। कलर वा माथि ८८% पटक, रन वा माथि ९५% पटक सबैभन्दा ठूलो हुन्छ।",
  },
  {
    en: "With four players, at least one of the other three holds a pair or better 59% of the time, yet in 31% of deals the best hand at the table is only a high card.",
    ne: "४ जना हुँदा बाँकी ३ मध्ये कम्तीमा एक जनासँग ५९% पटक जुट वा माथि हुन्छ, तर ३१% बाजीमा टेबलकै सबैभन्दा ठूलो तास हाइ कार्ड मात्र हुन्छ।",
  },
  {
    en: "An ace high beats one random hand 67% of the time but is the best of four hands only 31% of the time. It is worth more in a side show, against one player, than in a big raise against the whole table.",
    ne: "एक्का भएको हाइ कार्डले जुनसुकै एक जनाको तासलाई ६७% पटक जित्छ, तर ४ जनाको तासमध्ये ३१% पटक मात्र सबैभन्दा ठूलो हुन्छ। पूरै टेबलविरुद्ध ठूलो रेजभन्दा एक जनासँगको साइड सोमा यो बढी काम लाग्छ।",
  },
  {
    en: "A pair beats one random hand 83% of the time and two random hands 69% of the time: the fewer players left, the more it is worth. Pack a weak hand early; every chaal you skip is chips kept for a better one.",
    ne: "जुटले जुनसुकै एक जनाको तासलाई ८३% र २ जनाको तासलाई ६९% पटक जित्छ: जति कम खेलाडी बाँकी, त्यति बढी काम लाग्छ। कमजोर तास चाँडै प्याक गर्नुहोस्; नतिरेको हरेक चाल राम्रो तासका लागि बचेको चिप्स हो।",
  },
  {
    en: "Trails and pure sequences are rare: 100 of the 22,100 hands. At a table of four somebody holds one only about once in 55 deals.",
    ne: "ट्रायल र डबल रन दुर्लभ हुन्छन्: २२,१०० मध्ये १०० तास मात्र। ४ जनाको टेबलमा कसैसँग यस्तो तास करिब ५५ बाजीमा एक पटक मात्र आउँछ।",
  },
];

export const TIPS_METHOD = {
  en: "How these figures were found: the counts are exact, made with this project's own hand evaluator over all 22,100 three-card hands at our table's ranking; the figures against one or two hands are exact too; the four-player figures come from one million random deals and are rounded to whole percents. Equal hands count as best.",
  ne: "यी तथ्याङ्क कसरी निकालिए: गन्ती यही खेलको आफ्नै तास दाँज्ने प्रोग्रामले हाम्रो टेबलको क्रममा सबै २२,१०० तास गनेर निकालेको हो, त्यसैले ठ्याक्कै हो; १ वा २ जनाको तासविरुद्धका तथ्याङ्क पनि ठ्याक्कै हुन्; ४ खेलाडीका तथ्याङ्क दस लाख पटक तास फिटेर बाँडेर निकालिएका र पूरा प्रतिशतमा मिलाइएका हुन्। बराबर तासलाई पनि सबैभन्दा ठूलो गनिएको छ।",
};
