// Copy for the landing page. Kept apart from the markup so wording can be
// reviewed in one place; every claim here is one the spec lets us make.

export const MONEY_BACK_DAYS = 30;
export const SATISFACTION_PERCENT = 98;

export interface Step {
  title: string;
  text: string;
}

export const STEPS: readonly Step[] = [
  {
    title: 'Sign Up',
    text: 'Create your free account in under a minute. No contracts, no monthly fees — just an email and a password.',
  },
  {
    title: 'Choose a Service',
    text: 'Pick a USPS service, enter the addresses and the parcel details. A 120lb parcel costs the same as a 20lb one.',
  },
  {
    title: 'Confirmation',
    text: 'Pay from your prepaid balance and your label is confirmed instantly — fully automated, day and night.',
  },
  {
    title: 'Enjoy Your Service',
    text: 'Download and print your USPS label, hand the parcel over, and track every order from your dashboard.',
  },
];

export interface Reason {
  title: string;
  points: readonly [string, string, string];
  quote: string;
  quoteAuthor: string;
}

export const REASONS: readonly Reason[] = [
  {
    title: 'Unmatched Quality Service',
    points: [
      'Genuine USPS labels, accepted at every post office and pickup',
      'Overnight labels for the parcels that cannot wait',
      `A ${SATISFACTION_PERCENT}% satisfaction guarantee on every order`,
    ],
    quote: 'Labels are ready the moment I pay. I have not queued at a counter since I switched.',
    quoteAuthor: 'Etsy seller, Ohio',
  },
  {
    title: 'Transparent and Affordable Rates',
    points: [
      'One flat price whatever the parcel weight',
      'A 120lb label costs exactly the same as a 20lb label',
      'Bitcoin payments keep our costs — and your rates — lower',
    ],
    quote: 'Heavy parcels used to eat my margin. With one flat price I finally know my shipping cost up front.',
    quoteAuthor: 'Home-gym equipment reseller, Texas',
  },
  {
    title: '24/7 Support at Your Fingertips',
    points: [
      'Live chat widget on every page, around the clock',
      'Real people who know shipping, not scripts',
      `A ${MONEY_BACK_DAYS}-day money-back guarantee if anything goes wrong`,
    ],
    quote: 'I asked a question at 2 a.m. on a Sunday and had an answer in minutes.',
    quoteAuthor: 'Marketplace shop owner, Florida',
  },
];

export interface PricingPoint {
  title: string;
  text: string;
}

export const PRICING_POINTS: readonly PricingPoint[] = [
  {
    title: 'Transparent Pricing',
    text: 'One flat price per label, whatever the weight. A 120lb parcel ships for the same price as a 20lb parcel — no weight tiers, no surprises.',
  },
  {
    title: 'No Hidden Fees',
    text: 'No subscriptions, no surcharges, no extra charge for heavy parcels. The price you see before you buy is the price you pay.',
  },
  {
    title: 'Complete Clarity',
    text: 'Every deposit and every label appears in your dashboard with its exact cost, so your books always balance.',
  },
];

export interface FaqEntry {
  question: string;
  answer: string;
}

export const FAQ: readonly FaqEntry[] = [
  {
    question: 'What services do you offer?',
    answer:
      'Flatship sells prepaid USPS shipping labels for businesses of every size. Buy one label at a time or order in bulk from a spreadsheet or marketplace order file, with overnight labels available. Every label has one flat price whatever the parcel weight — a 120lb label costs the same as a 20lb label — and the whole service is fully automated, so labels are ready the moment you pay.',
  },
  {
    question: 'How can I contact customer support?',
    answer:
      'Our support team is available 24/7 through the chat widget in the corner of every page once you are signed in. Ask about an order, a deposit or a label and a real person will answer, day or night. You can also join our community chat, linked at the bottom of this page.',
  },
  {
    question: 'Do you offer a money-back guarantee?',
    answer: `Yes. Every purchase is covered by a ${MONEY_BACK_DAYS}-day money-back guarantee, and we stand behind a ${SATISFACTION_PERCENT}% satisfaction guarantee. If a label does not work as promised, contact support within ${MONEY_BACK_DAYS} days and we will make it right.`,
  },
  {
    question: 'Why do you accept payment in Bitcoin?',
    answer:
      'Deposits are paid in Bitcoin (BTC) through a trusted invoice provider. Bitcoin payments avoid card-processing fees and chargeback costs, and those savings go straight into keeping our rates lower. You top up your balance once and buy labels from it whenever you need them.',
  },
];

export interface Testimonial {
  name: string;
  role: string;
  photo: string;
  rating: number;
  feedback: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: 'Sofia Ramirez',
    role: 'Customer',
    photo: '/landing/customer-1.svg',
    rating: 4.5,
    feedback:
      'I ship handmade furniture, so my parcels are heavy. Paying one flat price per label changed my whole business — and the labels print in seconds.',
  },
  {
    name: 'Marcus Bennett',
    role: 'Customer',
    photo: '/landing/customer-2.svg',
    rating: 5,
    feedback:
      'Bulk orders from my marketplace file take minutes instead of an afternoon. Support answered on a Saturday night. Could not ask for more.',
  },
  {
    name: 'Helen Park',
    role: 'Customer',
    photo: '/landing/customer-3.svg',
    rating: 4,
    feedback:
      'Clear prices and a dashboard that shows every deposit and label. Paying in Bitcoin was new to me, but the invoice made it simple.',
  },
];

export interface Benefit {
  title: string;
  text: string;
}

export const READY_BENEFITS: readonly Benefit[] = [
  {
    title: 'Fast Delivery',
    text: 'Overnight USPS labels and a fully automated checkout: your label is ready the moment you pay, any hour of the day.',
  },
  {
    title: 'Multiple Options',
    text: 'Single labels or bulk orders from a spreadsheet, saved addresses and presets — ship the way that suits your business.',
  },
];
