/** The three module keys (Chat.module values) and their routes and names. */
export const MODULE_KEYS = ['brand-hub', 'governance', 'talent-intelligence'] as const;
/** The same union as modules.ts's ModuleKey (the schema of these keys). */
type ModuleKey = (typeof MODULE_KEYS)[number];

export interface ModuleInfo {
  key: ModuleKey;
  /** Display name: "Enter {name}", "Back to {name}", "No recent chats for {name}". */
  name: string;
  path: `/${ModuleKey}`;
  /** Header title of the signed-in shell. */
  headerTitle: string;
  /** Title of a chat started with the module's main button. */
  defaultChatTitle: string;
  /** Main button label on the module page. */
  newChatLabel: string;
  startersHeading: string;
  /** Company column holding the module's model. */
  companyModelField: 'brandHubModel' | 'governanceModel' | 'talentIntelligenceModel';
}

export const MODULES: Record<ModuleKey, ModuleInfo> = {
  'brand-hub': {
    key: 'brand-hub',
    name: 'Brand Hub',
    path: '/brand-hub',
    headerTitle: 'Brand Hub',
    defaultChatTitle: 'Brand Hub Thread',
    newChatLabel: 'New Analysis',
    startersHeading: "Don't know how to start? Try one of the starters!",
    companyModelField: 'brandHubModel',
  },
  governance: {
    key: 'governance',
    name: 'Governance',
    path: '/governance',
    headerTitle: 'Governance',
    defaultChatTitle: 'Governance Chat',
    newChatLabel: 'Start New Chat',
    startersHeading: 'Need inspiration? Try a starter template',
    companyModelField: 'governanceModel',
  },
  'talent-intelligence': {
    key: 'talent-intelligence',
    name: 'Talent Intelligence',
    path: '/talent-intelligence',
    headerTitle: 'Performance & Reports',
    defaultChatTitle: 'Talent Intelligence Chat',
    newChatLabel: 'Start New Chat',
    startersHeading: 'Need inspiration? Try a starter template',
    companyModelField: 'talentIntelligenceModel',
  },
};
