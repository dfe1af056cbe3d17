/**
 * Realistic answer values per question type, drawn from a seeded PRNG. Shapes follow what the
 * live service is known to return (docs/fillout-api.md, "Answer values and question types");
 * where a shape is unknown, something plausible that a client must pass through untouched.
 */
import { SEED_FILE_ORIGIN } from './files';
import type { Prng } from './prng';
import type { QuestionDef } from './types';

export interface Person {
	name: string;
	email: string;
	phone: string;
}

/** Names in several scripts on purpose: accents, CJK, right-to-left, apostrophes. */
export const PEOPLE: readonly Person[] = [
	{ name: 'Ana López', email: 'ana.lopez@example.com', phone: '+34 612 345 678' },
	{ name: 'José Álvarez', email: 'jose.alvarez@example.es', phone: '+34 699 100 200' },
	{ name: 'Zoë Øvergaard', email: 'zoe.overgaard@example.dk', phone: '+45 20 12 34 56' },
	{ name: 'Renée Dubois', email: 'renee.dubois@example.fr', phone: '+33 6 12 34 56 78' },
	{ name: 'Björn Müller', email: 'bjorn.muller@example.de', phone: '+49 151 2345 6789' },
	{ name: 'Siobhán O’Brien', email: 'siobhan.obrien@example.ie', phone: '+353 85 123 4567' },
	{ name: 'Łukasz Wiśniewski', email: 'lukasz.w@example.pl', phone: '+48 501 234 567' },
	{ name: '王芳', email: 'wang.fang@example.cn', phone: '+86 139 1234 5678' },
	{ name: '佐藤 花子', email: 'hanako.sato@example.jp', phone: '+81 90 1234 5678' },
	{ name: '김민준', email: 'minjun.kim@example.kr', phone: '+82 10 1234 5678' },
	{ name: 'محمد علي', email: 'mohamed.ali@example.eg', phone: '+20 100 123 4567' },
	{ name: 'נועה כהן', email: 'noa.cohen@example.co.il', phone: '+972 52 123 4567' },
	{ name: 'Priya Raman', email: 'priya.raman@example.in', phone: '+91 98765 43210' },
	{ name: 'Olúwaseun Adébáyọ̀', email: 'seun.adebayo@example.ng', phone: '+234 803 123 4567' },
	{ name: 'Mateo Rossi', email: 'mateo.rossi@example.it', phone: '+39 347 123 4567' },
	{ name: 'Emily Carter', email: 'emily.carter@example.com', phone: '+1 415 555 0134' },
	{ name: 'Liam Nguyen', email: 'liam.nguyen@example.com', phone: '+1 206 555 0199' },
	{ name: 'Chloé Martin', email: 'chloe.martin@example.ca', phone: '+1 514 555 0170' },
	{ name: 'Kwame Mensah', email: 'kwame.mensah@example.gh', phone: '+233 24 123 4567' },
	{ name: 'Sofia Papadopoulou', email: 'sofia.p@example.gr', phone: '+30 694 123 4567' },
];

export const ADDRESSES = [
	{
		address: '1600 Amphitheatre Pkwy',
		city: 'Mountain View',
		state: 'CA',
		zipCode: '94043',
		country: 'United States',
	},
	{
		address: '350 Fifth Avenue',
		city: 'New York',
		state: 'NY',
		zipCode: '10118',
		country: 'United States',
	},
	{
		address: '12 Rue de Rivoli',
		city: 'Paris',
		state: 'Île-de-France',
		zipCode: '75004',
		country: 'France',
	},
	{
		address: 'Friedrichstraße 43',
		city: 'Berlin',
		state: 'Berlin',
		zipCode: '10117',
		country: 'Germany',
	},
	{ address: '1-1 Chiyoda', city: '東京', state: '東京都', zipCode: '100-0001', country: 'Japan' },
	{
		address: 'Av. Paulista, 1578',
		city: 'São Paulo',
		state: 'SP',
		zipCode: '01310-200',
		country: 'Brazil',
	},
	{
		address: 'שדרות רוטשילד 22',
		city: 'תל אביב',
		state: '',
		zipCode: '6688218',
		country: 'Israel',
	},
];

export const COMMENTS = [
	'Great service 👍🎉',
	'La prestation était très bien, merci !',
	'とても使いやすいです。また利用します。',
	'الخدمة ممتازة، شكراً لكم',
	'השירות היה מצוין',
	'Could be faster on mobile.',
	'Checkout failed twice before it worked.\nSecond line: the retry button helped.',
	'Ich würde es weiterempfehlen – sehr übersichtlich.',
	'非常好，谢谢！',
	'Loved the “dark mode” — please keep it.',
	'Support replied within 5 minutes 🚀',
	'Prices are a bit high for small teams.',
];

const SKILLS = ['TypeScript', 'SQL', 'Design', 'Copywriting', 'Data analysis', 'Public speaking'];
const COLORS = ['#3b82f6', '#10b981', '#f59e0b', '#ef4444', '#8b5cf6'];
const CITIES_COORDS = [
	{ latitude: '37.4220', longitude: '-122.0841' },
	{ latitude: '48.8566', longitude: '2.3522' },
	{ latitude: '35.6812', longitude: '139.7671' },
	{ latitude: '-23.5614', longitude: '-46.6559' },
];

const pad = (n: number) => String(n).padStart(2, '0');

/** A date in 2024 as the DatePicker returns it: "2024-02-01". */
function isoDay(rng: Prng, month?: number): string {
	return `2024-${pad(month ?? rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
}

function fileName(rng: Prng, base: string, ext: string): { url: string; filename: string } {
	const filename = `${base}-${rng.int(1, 999)}.${ext}`;
	return { url: `${SEED_FILE_ORIGIN}/${rng.alnum(16)}/${filename}`, filename };
}

function optionValues(question: QuestionDef): string[] {
	return (question.options ?? []).map((option) => option.value);
}

/** A realistic value for one question, given who is answering. */
export function answerFor(question: QuestionDef, rng: Prng, person: Person): unknown {
	const options = optionValues(question);
	switch (question.type) {
		case 'ShortAnswer':
			return /name/i.test(question.name)
				? person.name
				: rng.pick(['Acme Inc.', 'Globex', 'Initech', 'Umbrella GmbH', 'Société Générale']);
		case 'LongAnswer':
			return rng.pick(COMMENTS);
		case 'EmailInput':
			return person.email;
		case 'PhoneNumber':
			return person.phone;
		case 'URLInput':
			return `https://portfolio.example.com/${person.email.split('@')[0]}`;
		case 'NumberInput':
			return rng.int(1, 12);
		case 'CurrencyInput':
			return rng.int(500, 250000) / 100;
		case 'StarRating':
			return rng.int(1, 5);
		case 'OpinionScale':
			return rng.int(0, 10);
		case 'Slider':
			return rng.int(0, 100);
		case 'DatePicker':
			return isoDay(rng);
		case 'DateTimePicker':
			return `${isoDay(rng)}T${pad(rng.int(8, 18))}:${pad(rng.pick([0, 15, 30, 45]))}:00.000Z`;
		case 'TimePicker':
			return `${pad(rng.int(8, 18))}:${pad(rng.pick([0, 30]))}`;
		case 'DateRange': {
			const month = rng.int(1, 11);
			return { start: isoDay(rng, month), end: isoDay(rng, month + 1) };
		}
		case 'Address':
			return { ...rng.pick(ADDRESSES) };
		case 'MultipleChoice':
		case 'Dropdown':
		case 'ImagePicker':
			return options.length ? rng.pick(options) : 'Other';
		case 'Checkboxes':
		case 'MultiSelect':
			return rng.sample(options.length ? options : SKILLS, rng.int(1, 3));
		case 'Ranking':
			return rng.sample(options.length ? options : SKILLS, 99);
		case 'Checkbox':
		case 'Switch':
			return rng.chance(0.7);
		case 'FileUpload':
			return [fileName(rng, 'document', rng.pick(['pdf', 'png', 'docx']))];
		case 'AudioRecording':
			return [fileName(rng, 'recording', 'webm')];
		case 'Signature':
			return fileName(rng, 'signature', 'png').url;
		case 'ColorPicker':
			return rng.pick(COLORS);
		case 'LocationCoordinates':
			return { ...rng.pick(CITIES_COORDS) };
		case 'Matrix':
			return {
				Price: rng.pick(['Good', 'Fair', 'Poor']),
				Quality: rng.pick(['Good', 'Fair', 'Poor']),
			};
		case 'Table':
			return [
				{ Company: rng.pick(['Acme Inc.', 'Globex']), Years: String(rng.int(1, 6)) },
				{ Company: 'Initech', Years: String(rng.int(1, 4)) },
			];
		case 'Password':
			return rng.alnum(12);
		case 'Captcha':
			return true;
		case 'Calendly':
		case 'Calcom': {
			const day = isoDay(rng);
			const hour = rng.int(9, 16);
			return {
				eventStartTime: `${day}T${pad(hour)}:00:00.000Z`,
				eventEndTime: `${day}T${pad(hour)}:30:00.000Z`,
				email: person.email,
				fullName: person.name,
			};
		}
		case 'RecordPicker':
			return `rec${rng.alnum(14)}`;
		case 'SubmissionPicker':
			return rng.uuid();
		case 'Subform':
			return [{ 'Full name': person.name, Role: rng.pick(['Speaker', 'Attendee', 'Sponsor']) }];
		case 'Payment':
			return {
				paymentId: `pi_${rng.alnum(24)}`,
				totalAmount: rng.int(1000, 9000),
				currency: 'usd',
				status: 'succeeded',
			};
		case 'HologramInput':
			// A question type no client knows yet: new types appear on the live service without notice.
			return {
				hologramId: `holo_${rng.alnum(10)}`,
				frames: rng.int(12, 60),
				depthMap: [rng.int(0, 9), rng.int(0, 9), rng.int(0, 9)],
			};
		default:
			return rng.alnum(8);
	}
}
