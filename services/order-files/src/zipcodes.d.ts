declare module 'zipcodes/lib/codes.js' {
  const data: {
    codes: Record<string, { zip: string; city: string; state: string; country: string }>;
  };
  export default data;
}
