import type { Concept } from './sections';

/**
 * The checklists the Governance starters name, as concepts judged by meaning (see sections.ts).
 * Names are heading wordings; cues are what a section on the topic says in ordinary policy
 * language, so a document that never uses the checklist's words still gets credit.
 */

const PERSONAL_DATA =
  /\b(personal (data|information)|data subjects?|gdpr|privacy|customer data|employee data)\b/i;

export const POLICY: Concept[] = [
  {
    key: 'purpose',
    draft: (title) =>
      `This policy sets out how ${title.replace(/ policy$/i, '').toLowerCase()} is managed so that [outcome].`,
    label: 'Purpose',
    guidance: 'Why the policy exists and what it aims to achieve.',
    names: [
      'purpose',
      'objective',
      'objectives',
      'aim',
      'aims',
      'introduction',
      'overview',
      'background',
      'why this policy',
      'why we have this policy',
      'about this policy',
      'what this policy is for',
    ],
    cues: [
      /\bthis (policy|document|standard) (sets out|explains|describes|establishes|exists|is here)\b/i,
      /\b(aims?|intended|designed) to\b/i,
      /\bso that\b/i,
      /\bin order to (protect|ensure|make sure)\b/i,
      /\bwhy\b.*\b(we|this policy)\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'scope',
    draft:
      'This policy applies to all employees, contractors and third parties who [...], and to [systems, data, locations]. It does not cover [...].',
    label: 'Scope',
    guidance:
      'Who and what the policy applies to (people, systems, locations) and what is out of scope.',
    names: [
      'scope',
      'applicability',
      'application',
      'who this policy applies to',
      'who this applies to',
      'who it applies to',
      'who is covered',
      'audience',
      'coverage',
    ],
    cues: [
      /\bappl(y|ies) to\b/i,
      /\b(in|out of) scope\b/i,
      /\b(covers|does not cover)\b/i,
      /\b(all|every) (employees?|staff|workers|contractors|colleagues)\b/i,
      /\bcontractors?\b/i,
      /\bthird part(y|ies)\b/i,
    ],
  },
  {
    key: 'definitions',
    draft: '| Term | Meaning |\n| --- | --- |\n| [Term] | [Meaning] |',
    label: 'Definitions',
    guidance: 'The key terms used in the policy and their meaning.',
    names: [
      'definitions',
      'glossary',
      'terms',
      'key terms',
      'terminology',
      'interpretation',
      'what we mean',
      'words we use',
    ],
    cues: [
      /["“][^"”]{2,40}["”] means\b/i,
      /\b\w+ means\b/i,
      /\bis defined as\b/i,
      /\brefers to\b/i,
      /\bfor the purposes? of this\b/i,
    ],
  },
  {
    key: 'roles',
    draft:
      '| Role | Responsibilities |\n| --- | --- |\n| Policy owner | Keeps the policy current and answers questions |\n| Line managers | Make sure their teams follow it |\n| All staff | Read, understand and follow it |',
    label: 'Roles and responsibilities',
    guidance: 'Who owns, applies, monitors and follows the policy, and what each role must do.',
    names: [
      'roles and responsibilities',
      'responsibilities',
      'roles',
      'accountabilities',
      'accountability',
      'who does what',
      'duties',
      'raci',
    ],
    cues: [
      /\b(is|are) (responsible|accountable)\b/i,
      /\bowns?\b/i,
      /\bmakes? sure\b/i,
      /\bensures?\b/i,
      /\boversees?\b/i,
      /\b(line )?managers?\b/i,
      /\b(head of|director|officer|lead|owner)\b/i,
      /\b(every|all) (employees?|staff|colleagues?)\b.*\b(must|should|will)\b/i,
      /\bapproves?\b/i,
    ],
    minCues: 3,
  },
  {
    key: 'statements',
    draft: '- Staff must [...].\n- Staff must not [...].',
    label: 'Policy statements',
    guidance: 'The rules themselves: what must and must not be done.',
    names: [
      'policy statements',
      'policy statement',
      'policy',
      'policy requirements',
      'requirements',
      'principles',
      'rules',
      'standards',
      'policy details',
      'what we expect',
      'what you must do',
      'our commitments',
      'the rules',
    ],
    cues: [
      /\bmust\b/i,
      /\bshall\b/i,
      /\bmust not\b/i,
      /\b(are|is) (required|prohibited|not allowed|not permitted)\b/i,
      /\bnever\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'compliance',
    draft:
      'Compliance is monitored by [method, frequency]. Breaches are reported to [role] and may lead to disciplinary action.',
    label: 'Compliance and enforcement',
    guidance: 'How compliance is monitored and what happens on a breach.',
    names: [
      'compliance',
      'enforcement',
      'compliance and enforcement',
      'breaches',
      'breach',
      'non compliance',
      'violations',
      'monitoring',
      'consequences',
      'if things go wrong',
      'what happens if',
      'sanctions',
    ],
    cues: [
      /\bdisciplinary\b/i,
      /\bbreach(es)? of (this|the) policy\b/i,
      /\bnon-?compliance\b/i,
      /\bfailure to (comply|follow)\b/i,
      /\bmonitor(ed|ing|s)?\b/i,
      /\baudit(ed|s)?\b/i,
      /\bdismissal\b/i,
      /\bsanctions?\b/i,
      /\bconsequences?\b/i,
    ],
  },
  {
    key: 'exceptions',
    draft:
      'Exceptions are requested in writing from [role], with the reason and an end date. Approved exceptions are recorded in [register] and reviewed every [period].',
    label: 'Exceptions',
    guidance: 'How to request an exception, who approves it and how exceptions are recorded.',
    names: [
      'exceptions',
      'exemptions',
      'waivers',
      'deviations',
      'exception process',
      'exceptions process',
      'when the rules do not apply',
      'departures',
    ],
    cues: [
      /\bexceptions?\b/i,
      /\bexemptions?\b/i,
      /\bwaivers?\b/i,
      /\bdeviat(e|ion)s?\b/i,
      /\b(by|with) (prior )?(written )?(approval|agreement) (of|from)\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'review',
    draft:
      'This policy is reviewed every 12 months by [owner], or sooner after a significant change in law or the business. Next review: [date].',
    label: 'Review cycle',
    guidance: 'How often the policy is reviewed, by whom, and the next review date.',
    names: [
      'review',
      'policy review',
      'review cycle',
      'review and update',
      'review and maintenance',
      'maintenance',
      'document review',
      'keeping this policy up to date',
      'updates to this policy',
    ],
    notAbout:
      /\b(suppliers?|vendors?|access|performance|salary|pay|code|peer|users?|contracts?|incidents?|audits?|risks?|customers?|cases?|complaints?)\b/i,
    cues: [
      // The policy is reviewed, not anything else ("key suppliers are reviewed annually").
      /\b(policy|document|it) (is|will be|shall be) reviewed (annually|every|each|at least|yearly)\b/i,
      /\bnext review\b/i,
      /\breview date\b/i,
      /\b(annual|yearly) review\b/i,
      /\bonce a year\b/i,
      /\bevery (two|three|\d+) years\b/i,
      /\bkept up to date\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'ownership',
    draft: 'Owner: [role]. Approved by: [body] on [date]. Version: [x.y].',
    label: 'Owner and approval',
    guidance: 'The accountable owner, the approving body, the approval date and the version.',
    notAbout:
      /\b(purchas\w*|spend\w*|expenses?|payments?|invoices?|orders?|contracts?|procurement|budgets?|limits?|levels?|matrix|authority|delegat\w*|thresholds?|signator\w*)\b/i,
    names: [
      'owner',
      'ownership',
      'approval',
      'approvals',
      'document control',
      'version control',
      'version history',
      'sign off',
      'document owner',
      'document information',
      'about this document',
    ],
    cues: [
      /\b(policy|document) owner\b/i,
      /\bowner\s*:/i,
      /\bapproved by\b/i,
      /\bapproval date\b/i,
      /\bversion\s*:?\s*\d/i,
      /\bsigned off\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'related',
    draft: '- [Related policy]\n- [Procedure or standard]\n- [Law or regulation]',
    label: 'Related documents',
    guidance: 'Other policies, standards, procedures and laws this policy relies on.',
    names: [
      'related documents',
      'related policies',
      'references',
      'see also',
      'associated documents',
      'supporting documents',
      'related procedures',
      'other policies',
      'further reading',
      'where to find more',
    ],
    cues: [
      /\brelated polic(y|ies)\b/i,
      /\bsee also\b/i,
      /\bin conjunction with\b/i,
      /\b(read|used) (together|alongside) with\b/i,
      /\b\w+ (policy|procedure|standard|act \d{4})\b.*\b(and|,)\b.*\b(policy|procedure|standard)\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'dataProtection',
    draft:
      'Personal data handled under this policy is processed lawfully under [legal basis], kept only as long as [period], protected by [controls] and shared only with [recipients]. Contact the Data Protection Officer at [contact].',
    label: 'Data protection',
    guidance:
      'How personal data is collected, used, stored, shared and deleted, and the legal basis (e.g. GDPR).',
    names: [
      'data protection',
      'privacy',
      'personal data',
      'information security',
      'confidentiality',
      'data privacy',
      'your information',
      'how we handle data',
    ],
    cues: [
      /\bpersonal (data|information)\b/i,
      /\bgdpr\b/i,
      /\bdata protection\b/i,
      /\bprivacy\b/i,
      /\bdata subjects?\b/i,
      /\blawful basis\b/i,
    ],
    appliesWhen: PERSONAL_DATA,
  },
];

/** Acceptable use: the general checklist plus the topics the refresh starter names. */
export const AUP_TOPICS: Concept[] = [
  {
    key: 'remoteWork',
    draft:
      'When working away from the office, staff connect through the company VPN, never use public Wi-Fi without it, keep screens out of view of others and do not print confidential material at home.',
    label: 'Remote and hybrid work',
    guidance:
      'Working away from the office: home networks, public Wi-Fi, VPN, screen privacy, printing at home.',
    names: [
      'remote work',
      'remote working',
      'working from home',
      'hybrid working',
      'home working',
      'working away from the office',
      'working on the move',
    ],
    cues: [
      /\b(remote(ly)?|from home|hybrid|home network|public wi-?fi|vpn|off-?site|travel(ling)?)\b/i,
      /\b(coffee shops?|cafes?|trains?)\b/i,
    ],
    minCues: 2,
  },
  {
    key: 'personalDevices',
    draft:
      'Personal phones and laptops may access company e-mail and files only once enrolled in device management, with a screen lock, current updates and encryption. Company data stays in the managed apps and can be wiped remotely when the device is lost or the person leaves.',
    label: 'Personal devices (BYOD)',
    guidance:
      'Using your own phone or laptop: enrolment, minimum security, separation of company data, remote wipe.',
    names: [
      'personal devices',
      'byod',
      'bring your own device',
      'own devices',
      'mobile devices',
      'your own phone',
    ],
    cues: [
      /\b(personal|own|private) (devices?|phones?|laptops?|computers?)\b/i,
      /\bbyod\b/i,
      /\b(mdm|mobile device management|remote wipe|enrol(l)?ed)\b/i,
    ],
    minCues: 2,
  },
  {
    key: 'generativeAi',
    draft:
      'Use only the approved AI tools [list], signed in with your work account. Never paste personal data, customer data, credentials or confidential plans into an AI tool. Check AI output for accuracy before you use it; you remain responsible for it. Say when published content was drafted with AI.',
    label: 'Generative AI tools',
    guidance:
      'Which AI tools are approved, what may never be pasted into them, checking their output, disclosure.',
    names: [
      'generative ai',
      'ai tools',
      'artificial intelligence',
      'chatbots',
      'large language models',
      'using ai',
    ],
    cues: [
      /\b(generative ai|genai|chatgpt|copilot|gemini|claude|large language models?|llms?|ai (tools?|assistants?|chatbots?))\b/i,
      /\b(prompts?|ai-generated|ai output)\b/i,
    ],
    minCues: 2,
  },
];

export const TERMS_OF_REFERENCE: Concept[] = [
  {
    key: 'membership',
    label: 'Membership',
    guidance: 'Who sits on the committee, how many members, their independence and who chairs.',
    names: ['membership', 'members', 'composition', 'constitution', 'who sits on the committee'],
    cues: [
      /\bmembers?\b/i,
      /\bindependent non-?executive\b/i,
      /\bchair(ed)?\b/i,
      /\bappointed by\b/i,
      /\bat least (two|three|four|\d) members\b/i,
    ],
  },
  {
    key: 'quorum',
    label: 'Quorum',
    guidance:
      'How many members must be present for the committee to decide (at least two independent members).',
    names: ['quorum', 'quorate'],
    cues: [/\bquorum\b/i, /\bquorate\b/i],
    minCues: 1,
  },
  {
    key: 'meetings',
    label: 'Frequency of meetings',
    guidance:
      'How often the committee meets (an audit committee at least three or four times a year) and who attends.',
    names: ['meetings', 'frequency of meetings', 'frequency', 'how often we meet', 'attendance'],
    cues: [
      /\bmeet(s|ings?)?\b.*\b(times a year|quarterly|annually|each year|per year|a year|monthly)\b/i,
      /\b(attend|attendance|invited to attend)\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'duties',
    label: 'Duties',
    guidance: 'What the committee does: its responsibilities and the matters reserved to it.',
    names: [
      'duties',
      'responsibilities',
      'role',
      'remit',
      'purpose and duties',
      'what the committee does',
      'functions',
    ],
    cues: [
      /\b(the committee|it) (shall|will|must)\b/i,
      /\breview(s|ing)?\b/i,
      /\bmonitor(s|ing)?\b/i,
      /\boversee(s|ing)?\b/i,
      /\brecommend(s|ing)?\b/i,
    ],
    minCues: 3,
  },
  {
    key: 'reporting',
    label: 'Reporting',
    guidance: 'How the committee reports to the board after each meeting and in the annual report.',
    names: ['reporting', 'reporting responsibilities', 'reporting to the board', 'reports'],
    cues: [
      /\breport(s)? (formally )?to the board\b/i,
      /\bannual report\b/i,
      /\bafter each meeting\b/i,
      /\bminutes\b.*\bcirculated\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'annualReview',
    label: 'Annual review of the terms and of performance',
    guidance:
      'The committee reviews its terms of reference and its own effectiveness at least once a year.',
    names: [
      'annual review',
      'review of terms of reference',
      'performance evaluation',
      'effectiveness review',
      'self-assessment',
    ],
    cues: [
      /\breview (its|these) (own )?(terms of reference|performance|effectiveness)\b/i,
      /\b(annual|yearly) (review|self-?assessment|evaluation)\b/i,
      /\bat least (once a year|annually)\b.*\breview\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'authority',
    label: 'Authority',
    guidance:
      "What the committee may do: seek information, take outside advice at the company's cost.",
    names: ['authority', 'powers', 'delegated authority'],
    cues: [
      /\bis authori[sz]ed to\b/i,
      /\b(outside|external|independent) (legal or )?(professional )?advice\b/i,
    ],
    minCues: 1,
  },
  {
    key: 'secretary',
    label: 'Secretary',
    guidance: 'Who acts as secretary, circulates papers and minutes.',
    names: ['secretary', 'secretariat'],
    cues: [/\b(company )?secretary\b/i],
    minCues: 1,
  },
];

export const GDPR: Concept[] = [
  {
    key: 'ropa',
    label: 'Records of processing',
    guidance:
      'A record of processing activities (Art. 30): purposes, categories of data and people, recipients, retention.',
    names: [
      'records of processing',
      'record of processing activities',
      'ropa',
      'data inventory',
      'information asset register',
      'what we collect',
    ],
    cues: [
      /\brecords? of processing\b/i,
      /\bropa\b/i,
      /\b(data|information asset) (inventory|register|map)\b/i,
      /\bcategories of (personal )?data\b/i,
      /\bwe (collect|hold|process)\b/i,
    ],
  },
  {
    key: 'lawfulBasis',
    label: 'Lawful basis',
    guidance:
      'The lawful basis for each processing purpose (consent, contract, legal obligation, legitimate interests ...).',
    names: ['lawful basis', 'legal basis', 'why we use your data', 'grounds for processing'],
    cues: [
      /\b(lawful|legal) basis\b/i,
      /\bconsent\b/i,
      /\blegitimate interests?\b/i,
      /\blegal obligation\b/i,
      /\bperformance of (a|the|our) contract\b/i,
      /\bvital interests?\b/i,
    ],
  },
  {
    key: 'rights',
    label: 'Data subject rights',
    guidance:
      'How people exercise access, rectification, erasure, restriction, portability and objection, within one month.',
    names: [
      'data subject rights',
      'your rights',
      'individual rights',
      'rights of individuals',
      'subject access',
    ],
    cues: [
      /\bright (of|to) (access|erasure|rectification|object|restrict|portability|be forgotten)\b/i,
      /\bsubject access\b/i,
      /\bdsars?\b/i,
      /\bwithin (one|1) month\b/i,
      /\b(erasure|rectification|portability)\b/i,
    ],
  },
  {
    key: 'breach',
    label: 'Breach process',
    guidance:
      'How a personal data breach is reported, assessed and notified to the regulator within 72 hours.',
    names: [
      'breach',
      'data breach',
      'personal data breach',
      'incidents',
      'incident response',
      'security incidents',
      'if something goes wrong',
    ],
    cues: [
      /\b72 hours\b/i,
      /\bbreach(es)?\b/i,
      /\bincidents?\b/i,
      /\bnotify\b.*\b(ico|regulator|supervisory authority)\b/i,
    ],
  },
  {
    key: 'processors',
    label: 'Processors',
    guidance: 'Contracts with processors (Art. 28), their due diligence and sub-processors.',
    names: [
      'processors',
      'data processors',
      'suppliers',
      'third parties',
      'who we share data with',
      'sharing your information',
    ],
    cues: [
      /\bprocessors?\b/i,
      /\bsub-?processors?\b/i,
      /\bdata processing agreements?\b/i,
      /\b(suppliers|service providers|vendors)\b.*\b(data|behalf)\b/i,
      /\bshare\b.*\bwith\b/i,
    ],
  },
  {
    key: 'transfers',
    label: 'International transfers',
    guidance:
      'Transfers outside the UK/EEA and their safeguards (adequacy, standard contractual clauses, IDTA).',
    names: [
      'international transfers',
      'transfers',
      'overseas transfers',
      'data outside the uk',
      'data outside the eea',
    ],
    cues: [
      /\b(outside|out of) the (uk|eea|eu|european economic area)\b/i,
      /\bstandard contractual clauses\b/i,
      /\bsccs?\b/i,
      /\badequacy\b/i,
      /\binternational transfers?\b/i,
      /\bidta\b/i,
    ],
  },
];

export const ANTI_BRIBERY: Concept[] = [
  {
    key: 'gifts',
    label: 'Gifts and hospitality register',
    guidance:
      'Limits for giving and receiving gifts and hospitality, approval above the limit, and a register of every item.',
    names: ['gifts and hospitality', 'gifts', 'hospitality', 'entertainment'],
    cues: [/\bgifts?\b/i, /\bhospitality\b/i, /\bregister\b/i, /\b(£|€|\$)\s?\d+/i],
  },
  {
    key: 'dueDiligence',
    label: 'Third-party due diligence',
    guidance:
      'Risk-based checks of agents, intermediaries and suppliers before engagement and at renewal.',
    names: [
      'due diligence',
      'third parties',
      'third-party due diligence',
      'agents and intermediaries',
      'business partners',
    ],
    cues: [
      /\bdue diligence\b/i,
      /\b(agents?|intermediar(y|ies)|third part(y|ies)|business partners?)\b/i,
      /\b(before|prior to) (engaging|appointing|contracting)\b/i,
    ],
  },
  {
    key: 'training',
    label: 'Training completion',
    guidance: 'Who must complete anti-bribery training, how often, and how completion is tracked.',
    names: ['training', 'awareness', 'communication and training', 'learning'],
    cues: [
      /\btraining\b/i,
      /\b(complete|completion|e-?learning|refresher)\b/i,
      /\b(induction|annual(ly)?)\b/i,
    ],
  },
  {
    key: 'whistleblowing',
    label: 'Whistleblowing',
    guidance:
      'How to raise a concern confidentially, protection from retaliation, and who investigates.',
    names: [
      'whistleblowing',
      'speak up',
      'speaking up',
      'raising concerns',
      'reporting concerns',
      'how to raise a concern',
    ],
    cues: [
      /\bwhistle-?blow(ing|er)?\b/i,
      /\bspeak(ing)? up\b/i,
      /\b(raise|report) (a |any )?concerns?\b/i,
      /\b(retaliation|victimi[sz]ation|confidential(ly)?|anonymous(ly)?)\b/i,
      /\bhotline\b/i,
    ],
  },
  {
    key: 'facilitation',
    label: 'Facilitation payments and prohibited conduct',
    guidance: 'The ban on bribes and facilitation payments, and what to do if one is asked for.',
    names: ['facilitation payments', 'prohibited conduct', 'bribery', 'what is not allowed'],
    cues: [
      /\bfacilitation payments?\b/i,
      /\bbribe(s|ry)?\b/i,
      /\bkickbacks?\b/i,
      /\bpublic officials?\b/i,
    ],
  },
];

export const AI_FRAMEWORK: Concept[] = [
  {
    key: 'inventory',
    label: 'AI inventory',
    guidance:
      'A register of every AI tool and use case: owner, purpose, data used, vendor, risk tier.',
    names: ['inventory', 'ai register', 'register of ai', 'use case register', 'tool register'],
    cues: [
      /\b(inventory|register) of (ai|tools|use cases)\b/i,
      /\bai (inventory|register)\b/i,
      /\buse cases?\b/i,
    ],
  },
  {
    key: 'riskTiers',
    label: 'Risk tiers',
    guidance: 'Tiers from minimal to prohibited, with the controls each tier needs.',
    names: ['risk tiers', 'risk classification', 'risk levels', 'risk categories', 'tiers'],
    cues: [
      /\b(high|low|medium|minimal|limited|unacceptable)[- ]risk\b/i,
      /\btiers?\b/i,
      /\bprohibited uses?\b/i,
    ],
  },
  {
    key: 'approval',
    label: 'Approval steps',
    guidance:
      'Who approves a new AI use case and what they check (data protection, security, legal).',
    names: ['approval', 'approval process', 'approvals', 'how to get a tool approved'],
    cues: [
      /\bapprov(al|ed|e)\b/i,
      /\b(dpia|impact assessment)\b/i,
      /\b(security|legal|privacy) review\b/i,
    ],
  },
  {
    key: 'oversight',
    label: 'Human oversight',
    guidance:
      'A named person checks AI output before it is relied on or sent, and can override it.',
    names: ['human oversight', 'human review', 'human in the loop', 'checking ai output'],
    cues: [
      /\bhuman (oversight|review|in the loop)\b/i,
      /\b(check|review|verify) (the |all )?(ai )?output\b/i,
      /\boverride\b/i,
    ],
  },
  {
    key: 'records',
    label: 'Record keeping',
    guidance:
      'What is logged for each use: prompts or inputs where lawful, outputs used, decisions, versions.',
    names: ['record keeping', 'records', 'logging', 'audit trail', 'documentation'],
    cues: [/\b(log(s|ged|ging)?|audit trail|record(s|ed)? of)\b/i, /\bretain(ed)?\b/i],
  },
  {
    key: 'guidance',
    label: 'Staff guidance',
    guidance: 'Plain rules for staff: approved tools, what never to paste, disclosure, training.',
    names: [
      'staff guidance',
      'guidance for staff',
      'dos and don ts',
      'acceptable use',
      'using ai at work',
    ],
    cues: [
      /\b(staff|employees|colleagues) (must|should|may)\b/i,
      /\bnever (paste|enter|upload|share)\b/i,
      /\btraining\b/i,
      /\bapproved tools?\b/i,
    ],
  },
];

/**
 * Each checklist with its wording: its label, what the user attaches for it, the title of its
 * report (from the titles of the documents checked), and whether the report lists the evidence
 * still needed (readiness checks) or offers the sections to add (a policy gap check).
 */
export const CHECKLISTS = {
  policy: {
    label: 'Policy checklist',
    concepts: POLICY,
    needs: 'the policy',
    reportTitle: (titles: string[]) => `Policy gap check: ${titles.join(', ')}`,
    evidence: false,
    sectionsToAdd: true,
  },
  'acceptable-use': {
    label: 'Acceptable use policy checklist',
    concepts: [...POLICY, ...AUP_TOPICS],
    needs: 'the policy',
    reportTitle: (titles: string[]) => `Acceptable use policy refresh: ${titles[0]}`,
    evidence: false,
    sectionsToAdd: false,
  },
  'terms-of-reference': {
    label: 'Committee terms of reference good practice',
    concepts: TERMS_OF_REFERENCE,
    needs: 'the terms of reference',
    reportTitle: (titles: string[]) => `Terms of reference review: ${titles[0]}`,
    evidence: false,
    sectionsToAdd: false,
  },
  gdpr: {
    label: 'GDPR readiness checklist',
    concepts: GDPR,
    needs: 'the privacy notice or data protection policy',
    reportTitle: () => 'GDPR readiness checklist',
    evidence: true,
    sectionsToAdd: false,
  },
  'anti-bribery': {
    label: 'Anti-bribery and corruption controls',
    concepts: ANTI_BRIBERY,
    needs: 'the policy',
    reportTitle: () => 'Anti-bribery controls check',
    evidence: true,
    sectionsToAdd: false,
  },
  'ai-framework': {
    label: 'AI use governance framework',
    concepts: AI_FRAMEWORK,
    needs: 'the policy',
    reportTitle: (titles: string[]) => `AI use governance framework: ${titles[0]}`,
    evidence: false,
    sectionsToAdd: false,
  },
} as const;
export type ChecklistKey = keyof typeof CHECKLISTS;
export const CHECKLIST_KEYS = Object.keys(CHECKLISTS) as [ChecklistKey, ...ChecklistKey[]];

/** Each concept's draft wording by its key, for the sections a document lacks. */
const DRAFTS = new Map(
  Object.values(CHECKLISTS).flatMap((c) => c.concepts.map((k) => [k.key, k.draft] as const)),
);

/** Wording for a missing section: the concept's draft, or its guidance in brackets. */
export function draftOf(key: string, guidance: string, policyTitle: string): string {
  const d = DRAFTS.get(key);
  return d === undefined ? `[${guidance}]` : typeof d === 'function' ? d(policyTitle) : d;
}
