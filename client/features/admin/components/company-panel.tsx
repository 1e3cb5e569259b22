import * as React from 'react';
import { FlaskConicalIcon } from 'lucide-react';
import { MODULES, MODULE_KEYS } from '@contract/module-list';
import type { ModuleKey } from '@contract/modules';
import type { CompanySettings, CompanySettingsPatch } from '@contract/admin';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { OptionsSelect } from '@/components/options-select';
import { toast } from '@/hooks/use-toast';
import { serverMessage } from '@/api/http';
import { useCompanySettings, useModelTest, useUpdateCompany } from '@/features/admin/api/admin-api';
import { LoadFailure } from './panel-parts';

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Company settings: the model of each module (with a Test), and for operators domains and allowed models. */
export function CompanyPanel({ company, operator }: { company?: number; operator: boolean }) {
  const settings = useCompanySettings(company);
  const update = useUpdateCompany();
  const save = (patch: CompanySettingsPatch, done: string) =>
    update.mutate(
      { company, patch },
      {
        onSuccess: () => toast({ title: done }),
        onError: (err) =>
          toast({ variant: 'destructive', title: serverMessage(err, 'Could not save') }),
      },
    );
  if (settings.isError)
    return <LoadFailure error={settings.error} fallback="Could not load the company settings." />;
  if (!settings.data) return <p role="status">Loading...</p>;
  const c = settings.data;
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="models-heading" className="rounded-xl border bg-card p-4">
        <h3 id="models-heading" className="text-lg font-semibold">
          Model per module
        </h3>
        <p className="mb-4 text-sm text-muted-foreground">
          Chosen from the models the operator allows for {c.name}. The next reply uses the new
          model.
        </p>
        <div className="flex flex-col gap-4">
          {MODULE_KEYS.map((key) => (
            <ModelRow
              key={`${c.id}-${key}`}
              module={key}
              settings={c}
              pending={update.isPending}
              onChange={(model) =>
                save({ models: { [key]: model } }, `${MODULES[key].name} now uses ${model}`)
              }
            />
          ))}
        </div>
      </section>
      {operator && (
        <NameEditor
          key={`name-${c.id}-${c.name}`}
          value={c.name}
          pending={update.isPending}
          onSave={(name) => save({ name }, `Renamed to ${name}`)}
        />
      )}
      {operator && (
        <ListEditor
          key={`domains-${c.id}-${c.domains.join()}`}
          id="domains"
          title="E-mail domains"
          hint="People with these addresses may sign up and belong to this company (comma-separated)."
          value={c.domains}
          pending={update.isPending}
          onSave={(domains) => save({ domains }, 'Domains saved')}
        />
      )}
      {operator && (
        <ListEditor
          key={`models-${c.id}-${c.allowedModels.join()}`}
          id="allowed-models"
          title="Allowed models"
          hint='What this company’s admins may choose besides builtin, e.g. "openai:gpt-4.1-mini".'
          value={c.allowedModels.filter((m) => m !== 'builtin')}
          pending={update.isPending}
          onSave={(allowedModels) => save({ allowedModels }, 'Allowed models saved')}
        />
      )}
    </div>
  );
}

function ModelRow({
  module,
  settings,
  pending,
  onChange,
}: {
  module: ModuleKey;
  settings: CompanySettings;
  pending: boolean;
  onChange: (model: string) => void;
}) {
  const test = useModelTest();
  const current = settings.models[module];
  const labelId = `model-${module}-label`;
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <span id={labelId} className="text-sm font-medium sm:w-44">
        {MODULES[module].name}
      </span>
      <div className="flex flex-1 gap-2">
        <OptionsSelect
          options={settings.allowedModels.map((m) => ({ value: m, label: m }))}
          value={current}
          onChange={onChange}
          disabled={pending}
          trigger={{ 'aria-labelledby': labelId, className: 'w-full sm:w-72' }}
        />
        <Button
          variant="outline"
          aria-label={`Test the ${MODULES[module].name} model`}
          disabled={test.isPending}
          onClick={() => test.mutate(current)}
        >
          <FlaskConicalIcon aria-hidden="true" />
          Test
        </Button>
      </div>
      <p aria-live="polite" className="text-sm text-muted-foreground sm:w-64">
        {test.isPending
          ? 'Testing...'
          : test.data
            ? `${test.data.ok ? 'Answered' : 'Failed'}: ${test.data.detail} (${test.data.ms} ms)`
            : test.isError
              ? serverMessage(test.error, 'The test did not run')
              : ''}
      </p>
    </div>
  );
}

function ListEditor({
  id,
  title,
  hint,
  value,
  pending,
  onSave,
}: {
  id: string;
  title: string;
  hint: string;
  value: string[];
  pending: boolean;
  onSave: (list: string[]) => void;
}) {
  const [text, setText] = React.useState(value.join(', '));
  return (
    <form
      className="flex flex-col gap-2 rounded-xl border bg-card p-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(list(text));
      }}
    >
      <Label htmlFor={id} className="text-lg font-semibold">
        {title}
      </Label>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {hint}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          value={text}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit" disabled={pending}>
          Save
        </Button>
      </div>
    </form>
  );
}

/** The company's name (operators rename companies). */
function NameEditor({
  value,
  pending,
  onSave,
}: {
  value: string;
  pending: boolean;
  onSave: (name: string) => void;
}) {
  const [name, setName] = React.useState(value);
  return (
    <form
      className="flex flex-col gap-2 rounded-xl border bg-card p-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(name.trim());
      }}
    >
      <Label htmlFor="company-name" className="text-lg font-semibold">
        Company name
      </Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id="company-name"
          required
          maxLength={255}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Button type="submit" disabled={pending || name.trim() === value}>
          Rename
        </Button>
      </div>
    </form>
  );
}
