/**
 * What the distractor APIs of the large-catalog worlds are made of: domains far from the shipped catalogs
 * (medical, dental, IT support, finance, sports, fruit farming, electronics, HR, …), each with the things
 * it looks up and the fields only it outputs, and the names every domain reuses (`id`, `name`, `status`,
 * `date`, `patient_id`, `potential`, …), with the type and value a plan passes under each. Word lists; a
 * naming style (`distractors.ts`) decides how they are spelt.
 */
import type { Json } from '../../../src/model/types.ts';

export interface DistractorDomain {
  readonly name: string;
  /** Vendor prefix for the dotted style (`Dental.GetToothRecord`). */
  readonly vendor: string;
  /** Things its APIs are about (`tooth`, `fracture`). */
  readonly nouns: readonly string[];
  /** Parameter and output names only this domain uses, `words:type`. */
  readonly own: readonly string[];
}

const domain = (name: string, vendor: string, nouns: string, own: string): DistractorDomain => ({
  name,
  vendor,
  nouns: nouns.split(' '),
  own: own.split(' '),
});

export const DISTRACTOR_DOMAINS: readonly DistractorDomain[] = [
  domain(
    'medical',
    'Medi',
    'patient ecg sample diagnosis prescription allergy vital',
    'heart_rate:integer blood_pressure:string pain_level:integer dosage:string symptom:string',
  ),
  domain(
    'dental',
    'Dental',
    'tooth fracture cavity implant checkup',
    'tooth_number:integer fracture_type:string pain_level:integer enamel_score:number',
  ),
  domain(
    'it support',
    'Helpdesk',
    'ticket incident device license outage',
    'ticket_id:string priority:string assignee:string error_code:string',
  ),
  domain(
    'finance',
    'Fin',
    'invoice payment ledger budget loan',
    'amount:number currency:string interest_rate:number due_date:string',
  ),
  domain(
    'sports',
    'Sport',
    'player league fixture tournament injury',
    'score:string season:string jersey_number:integer position:string',
  ),
  domain(
    'fruit farming',
    'Orchard',
    'orchard harvest tree crop soil',
    'fruit_production:number yield:number ripeness:string soil_ph:number',
  ),
  domain(
    'electronics',
    'Volt',
    'circuit electrode battery sensor component',
    'voltage:number current:number resistance:number potential:number',
  ),
  domain(
    'hr',
    'People',
    'employee payslip vacation candidate review',
    'employee_id:string salary:number department:string start_date:string',
  ),
  domain(
    'astronomy',
    'Astro',
    'star planet comet observatory eclipse',
    'magnitude:number distance:number constellation:string right_ascension:string',
  ),
  domain(
    'chemistry',
    'Chem',
    'compound reaction element solution titration',
    'molar_mass:number formula:string ph:number potential:number',
  ),
  domain(
    'education',
    'Learn',
    'lesson quiz curriculum classroom assignment',
    'grade:string subject:string deadline:string difficulty:string',
  ),
  domain(
    'logistics',
    'Freight',
    'parcel warehouse pallet route container',
    'weight:number tracking_number:string carrier:string destination:string',
  ),
  domain(
    'veterinary',
    'Vet',
    'pet vaccination clinic breed appointment',
    'species:string weight:number owner_name:string vaccine:string',
  ),
  domain(
    'real estate',
    'Estate',
    'property listing lease tenant inspection',
    'price:number bedrooms:integer address:string area:number',
  ),
  domain(
    'music production',
    'Studio',
    'track mix sample session instrument',
    'tempo:integer key:string duration:number genre:string',
  ),
  domain(
    'agriculture',
    'Agri',
    'field irrigation fertilizer livestock weather',
    'rainfall:number temperature:number moisture:number crop_type:string',
  ),
  domain(
    'cybersecurity',
    'Secure',
    'vulnerability scan firewall alert certificate',
    'severity:string cve_id:string ip_address:string port:integer',
  ),
  domain(
    'automotive',
    'Auto',
    'vehicle engine tire repair recall',
    'mileage:integer vin:string model:string fuel_level:number',
  ),
  domain(
    'social media',
    'Social',
    'post comment follower hashtag story',
    'likes:integer handle:string caption:string audience:string',
  ),
  domain(
    'genomics',
    'Gene',
    'sequence variant sample assay marker',
    'gene_symbol:string coverage:number quality_score:number identity_aspect:string',
  ),
  domain(
    'energy',
    'Grid',
    'meter plant turbine outage tariff',
    'output_power:number capacity:number potential:number region:string',
  ),
  domain(
    'legal',
    'Law',
    'case contract clause hearing filing',
    'court:string case_number:string verdict:string party:string',
  ),
  domain(
    'image analysis',
    'Vision',
    'image text_region face label scene',
    'image_height:integer image_width:integer confidence:number method:string',
  ),
  domain(
    'cooking',
    'Chef',
    'recipe ingredient menu dish pantry',
    'calories:integer servings:integer cuisine:string prep_time:integer',
  ),
];

export const DISTRACTOR_VERBS: readonly string[] = [
  'get',
  'list',
  'search',
  'find',
  'create',
  'update',
  'check',
  'analyze',
  'fetch',
  'lookup',
  'calculate',
  'track',
  'validate',
  'export',
];

/** Words that tell two APIs of one noun apart (`get_tooth_history`, `getToothSummary`). */
export const DISTRACTOR_QUALIFIERS: readonly string[] = [
  'details',
  'history',
  'summary',
  'status',
  'report',
  'info',
  'records',
  'by date',
  'by location',
  'stats',
  'overview',
  'list',
];

/**
 * The names every domain reuses, as parameters and as output fields, with their type: the brief's list and
 * the names the shipped catalogs use most, so that in a catalog of thousands some API nearly always outputs
 * a field of the name a plan needs.
 */
export const COMMON_NAMES: readonly string[] = [
  'id:string',
  'name:string',
  'location:string',
  'date:string',
  'status:string',
  'data:string',
  'text:string',
  'title:string',
  'type:string',
  'user_id:string',
  'patient_id:string',
  'query:string',
  'results:string',
  'potential:number',
  'city:string',
  'description:string',
  'category:string',
  'language:string',
  'country:string',
  'price:number',
  'rating:number',
  'email:string',
  'address:string',
  'start_date:string',
  'end_date:string',
  'time:string',
  'amount:number',
  'currency:string',
  'url:string',
  'limit:integer',
  'count:integer',
  'value:number',
  'message:string',
  'result:string',
  'code:string',
  'source:string',
  'target:string',
  'duration:number',
  'distance:number',
  'score:number',
  'level:string',
  'size:integer',
  'format:string',
  'method:string',
];

const CITIES = ['Boston', 'Madrid', 'Osaka', 'Nairobi', 'Lima', 'Oslo', 'Perth', 'Quebec'];
const DATES = ['2024-01-15', '2024-03-02', '2024-06-30', '2024-09-12', '2024-11-05', '2025-02-20'];
const PEOPLE = ['Ines Duarte', 'Tom Becker', 'Priya Nair', 'Kofi Mensah', 'Lena Horvat', 'Omar Aziz'];
const WORDS = ['annual', 'urgent', 'standard', 'premium', 'north', 'blue', 'alpha', 'local'];

/** Literal values a flat plan passes under a parameter, by a word of its name, then by its type. */
export function literalChoices(name: string, type: string): readonly Json[] {
  const n = name.toLowerCase();
  if (/date|day|deadline/.test(n)) return DATES;
  if (/city|location|destination|region|address|origin/.test(n)) return CITIES;
  if (/name|owner|assignee|person|author|party/.test(n)) return PEOPLE;
  if (/email/.test(n)) return ['ines@example.com', 'tom@example.org', 'priya@example.net'];
  if (/time$|_time|^time/.test(n)) return ['09:30', '14:00', '18:45'];
  if (/(^|_)id$|Id$|number$|code$|vin$/.test(name)) return ['A-1042', 'B-7781', 'C-3310', 'D-5096', 'E-2267'];
  if (/lang/.test(n)) return ['en', 'de', 'ja'];
  if (/currency/.test(n)) return ['USD', 'EUR', 'JPY'];
  switch (type) {
    case 'integer':
      return [2, 3, 5, 8, 12, 20];
    case 'number':
      return [1.5, 7.25, 42.0, 99.9, 250.5];
    case 'boolean':
      return [true, false];
    default:
      return WORDS;
  }
}
