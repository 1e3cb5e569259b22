import * as React from 'react';
import {
  BarChart3Icon,
  BuildingIcon,
  KeyRoundIcon,
  ListChecksIcon,
  ScrollTextIcon,
  TableIcon,
  SettingsIcon,
  UsersIcon,
  WalletIcon,
} from 'lucide-react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/hooks/use-auth';
import { serverMessage } from '@/api/http';
import { useAdminMe, useCompanies } from '@/features/admin/api/admin-api';
import { AuditPanel } from './components/audit-panel';
import { BudgetsPanel } from './components/budgets-panel';
import { CompaniesPanel } from './components/companies-panel';
import { CompanyPanel } from './components/company-panel';
import { MembersPanel } from './components/members-panel';
import { SsoPanel } from './components/sso-panel';
import { RetentionPanel, RetentionTabLabel } from './components/retention-panel';
import { ReadingsPanel } from './components/readings-panel';
import { SelectField } from './components/panel-parts';
import { StartersPanel } from './components/starters-panel';
import { UsagePanel } from './components/usage-panel';

/** A tab's icon and name. */
function TabLabel({
  icon: Icon,
  text,
}: {
  icon: React.ComponentType<{ 'aria-hidden': 'true' }>;
  text: string;
}) {
  return (
    <>
      <Icon aria-hidden="true" />
      {text}
    </>
  );
}

/**
 * /admin: the console of company admins (their company) and operators (every company, chosen
 * at the top). The server checks every call; this page only hides what the role cannot use.
 */
export function AdminPage() {
  const { user } = useAuth();
  const me = useAdminMe();
  const operator = me.data?.role === 'operator';
  const companies = useCompanies('', 1, operator);
  const [chosen, setChosen] = React.useState<number | undefined>(undefined);
  // A notification's link names the tab (/admin?tab=budgets).
  const [tab, setTab] = React.useState(
    () => new URLSearchParams(window.location.search).get('tab') ?? 'members',
  );
  const company = operator
    ? (chosen ?? me.data?.company?.id ?? companies.data?.companies[0]?.id)
    : undefined;

  if (me.isError)
    return (
      <p role="alert" className="p-6 text-center text-sm">
        {serverMessage(me.error, 'The admin console is for company admins and operators.')}
      </p>
    );
  if (!me.data || !user || (operator && company === undefined && companies.isPending))
    return (
      <p role="status" className="p-6 text-center text-sm text-muted-foreground">
        Loading...
      </p>
    );
  const companyName = operator
    ? companies.data?.companies.find((c) => c.id === company)?.name
    : me.data.company?.name;

  // The console's tabs, in the order they are shown; operators also get Companies.
  const tabs: { value: string; label: React.ReactNode; panel: React.ReactNode }[] = [
    {
      value: 'members',
      label: <TabLabel icon={UsersIcon} text="Members" />,
      panel: <MembersPanel key={company} company={company} selfId={user.id} />,
    },
    {
      value: 'company',
      label: <TabLabel icon={SettingsIcon} text="Company settings" />,
      panel: <CompanyPanel key={company} company={company} operator={operator} />,
    },
    {
      value: 'starters',
      label: <TabLabel icon={ListChecksIcon} text="Starters" />,
      panel: <StartersPanel key={company} company={company} operator={operator} />,
    },
    ...(operator
      ? [
          {
            value: 'companies',
            label: <TabLabel icon={BuildingIcon} text="Companies" />,
            panel: (
              <CompaniesPanel
                onOpen={(id) => {
                  setChosen(id);
                  setTab('company');
                }}
              />
            ),
          },
        ]
      : []),
    {
      value: 'usage',
      label: <TabLabel icon={BarChart3Icon} text="Usage" />,
      panel: <UsagePanel key={company} company={company} operator={operator} />,
    },
    {
      value: 'budgets',
      label: <TabLabel icon={WalletIcon} text="Budgets" />,
      panel: <BudgetsPanel key={company} company={company} />,
    },
    {
      value: 'sso',
      label: <TabLabel icon={KeyRoundIcon} text="Single sign-on" />,
      panel: <SsoPanel key={company} company={company} />,
    },
    {
      value: 'retention',
      label: <RetentionTabLabel />,
      panel: <RetentionPanel key={company} company={company} />,
    },
    {
      value: 'audit',
      label: <TabLabel icon={ScrollTextIcon} text="Audit log" />,
      panel: <AuditPanel key={company} company={company} />,
    },
    {
      value: 'readings',
      label: <TabLabel icon={TableIcon} text="Readings" />,
      panel: <ReadingsPanel key={company} company={company} />,
    },
  ];

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 sm:py-8">
      <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 className="text-2xl font-semibold tracking-tight">{companyName ?? 'Companies'}</h2>
          <p className="mt-1 text-sm text-muted-foreground">
            {operator
              ? 'You are an operator: you manage every company.'
              : 'You are an admin of this company.'}
          </p>
        </div>
        {operator && companies.data && (
          <SelectField
            labelId="admin-company-label"
            label="Company"
            triggerClassName="w-full sm:w-64"
            placeholder="Choose a company"
            options={companies.data.companies.map((c) => ({ value: String(c.id), label: c.name }))}
            value={company ? String(company) : ''}
            onChange={(v) => setChosen(Number(v))}
          />
        )}
      </div>
      <Tabs value={tab} onValueChange={setTab} className="gap-4">
        <TabsList className="h-auto w-full flex-wrap sm:w-fit">
          {tabs.map((t) => (
            <TabsTrigger key={t.value} value={t.value}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.map((t) => (
          <TabsContent key={t.value} value={t.value}>
            {t.panel}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
