import type { BulkOrderItem } from '@flatship/proto';

// Real US destinations (city, state, ZIP), so every row passes the same validation a customer's file would.
const DESTINATIONS: readonly [string, string, string][] = [
  ['New York', 'NY', '10001'],
  ['Brooklyn', 'NY', '11201'],
  ['Los Angeles', 'CA', '90012'],
  ['San Francisco', 'CA', '94105'],
  ['San Diego', 'CA', '92101'],
  ['Chicago', 'IL', '60601'],
  ['Houston', 'TX', '77002'],
  ['Dallas', 'TX', '75201'],
  ['Phoenix', 'AZ', '85004'],
  ['Philadelphia', 'PA', '19103'],
  ['Seattle', 'WA', '98101'],
  ['Portland', 'OR', '97204'],
  ['Denver', 'CO', '80202'],
  ['Boston', 'MA', '02108'],
  ['Miami', 'FL', '33130'],
  ['Orlando', 'FL', '32801'],
  ['Atlanta', 'GA', '30303'],
  ['Nashville', 'TN', '37203'],
  ['Charlotte', 'NC', '28202'],
  ['Minneapolis', 'MN', '55401'],
  ['Detroit', 'MI', '48226'],
  ['Columbus', 'OH', '43215'],
  ['Kansas City', 'MO', '64106'],
  ['Salt Lake City', 'UT', '84111'],
  ['Las Vegas', 'NV', '89101'],
  ['Albuquerque', 'NM', '87102'],
  ['New Orleans', 'LA', '70112'],
  ['Anchorage', 'AK', '99501'],
  ['Honolulu', 'HI', '96813'],
  ['Burlington', 'VT', '05401'],
];
const FIRST = [
  'Maria',
  'James',
  'Aisha',
  'Chen',
  'Olivia',
  'Diego',
  'Priya',
  'Noah',
  'Fatima',
  'Liam',
  'Sofia',
  'Ethan',
];
const LAST = ['Garcia', 'Smith', 'Johnson', 'Nguyen', 'Patel', 'Brown', 'Kim', 'Lopez', 'Davis', 'Okafor', 'Miller'];
const STREETS = ['Main St', 'Oak Ave', 'Maple Dr', 'Cedar Ln', 'Elm St', 'Park Blvd', 'Lakeview Rd', 'Washington Ave'];
const SERVICES = ['USPS Ground Advantage', 'USPS Priority Mail'];
const PRODUCTS = ['Books', 'Phone case', 'Tea sampler', 'Yoga mat', 'Candles', 'Board game'];

/**
 * `count` rows as the bulk screen sends them after reading an Amazon order
 * export: one warehouse sender, varied recipients, weights and services.
 */
export function amazonRows(count: number, seed = 0): BulkOrderItem[] {
  return Array.from({ length: count }, (_, n) => {
    const i = n + seed * count;
    const [city, state, zip] = DESTINATIONS[i % DESTINATIONS.length]!;
    const orderNumber = `11${String(i % 10)}-${String(1_000_000 + i).slice(-7)}-${String(3_000_000 + i * 7).slice(-7)}`;
    return {
      courier: 'usps',
      service_name: SERVICES[i % SERVICES.length]!,
      manifested: false,
      sender: {
        order_id: orderNumber,
        sender_name: 'Harbor Goods Fulfillment',
        sender_phone: '512-555-0142',
        sender_company: 'Harbor Goods LLC',
        sender_address1: '100 Congress Ave',
        sender_address2: 'Suite 200',
        sender_city: 'Austin',
        sender_state_province: 'TX',
        sender_zip_postal: '78701',
        sender_country: 'US',
      },
      receiver: {
        receiver_name: `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`,
        receiver_phone: i % 3 === 0 ? `+1 206-555-${String(1000 + (i % 9000)).padStart(4, '0')}` : '',
        receiver_company: i % 10 === 0 ? 'Northwind Traders' : '',
        receiver_address1: `${100 + ((i * 37) % 9800)} ${STREETS[i % STREETS.length]}`,
        receiver_address2: i % 4 === 0 ? `Apt ${1 + (i % 40)}` : '',
        receiver_city: city,
        receiver_state_province: state,
        receiver_zip_postal: zip,
        receiver_country: 'US',
      },
      package: {
        order_item_id: String(40_000_000_000_000 + i),
        quantity: 1 + (i % 3),
        sku_number: `HG-${String(100 + (i % 25))}`,
        package_length: 6 + (i % 10),
        package_width: 4 + (i % 8),
        package_height: 2 + (i % 6),
        package_weight: 1 + (i % 12) * 0.5,
        package_weight_unit: 'LB',
        package_description: PRODUCTS[i % PRODUCTS.length]!,
        package_reference1: '',
        package_reference2: '',
      },
    };
  });
}
