import type * as React from 'react';
import { Redirect } from 'wouter';
import { LockKeyholeIcon, UserRoundIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/hooks/use-auth';
import { ProfileForm } from '@/features/settings/components/profile-form';
import { SecurityForm } from '@/features/settings/components/security-form';

/**
 * /settings (spec section 2): Profile and Security tabs. Inside the signed-in shell, whose
 * header holds the page h1; the guard there already redirects anonymous users, the checks here
 * keep the page right wherever it is mounted.
 */
export function SettingsPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) {
    return (
      <p role="status" className="p-6 text-center text-sm text-muted-foreground">
        Loading...
      </p>
    );
  }
  if (!user) return <Redirect to="/" replace />;

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-8">
      <div className="mb-6">
        <h2 className="text-2xl font-semibold tracking-tight">Account settings</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Manage your profile, company and password.
        </p>
      </div>
      <Tabs defaultValue="profile" className="gap-4">
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="profile" className="sm:px-4">
            <UserRoundIcon aria-hidden="true" />
            Profile
          </TabsTrigger>
          <TabsTrigger value="security" className="sm:px-4">
            <LockKeyholeIcon aria-hidden="true" />
            Security
          </TabsTrigger>
        </TabsList>
        <TabsContent value="profile">
          <SettingsCard
            title="Profile Information"
            description="Your name, company and contact details."
          >
            {/* Keyed by the user so a new answer from the server restarts the form from it. */}
            <ProfileForm key={user.id} user={user} />
          </SettingsCard>
        </TabsContent>
        <TabsContent value="security">
          <SettingsCard
            title="Security Settings"
            description="Changing your password signs you out everywhere else."
          >
            <SecurityForm />
          </SettingsCard>
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** A tab's card: its heading, what it changes, its form. */
function SettingsCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h3 className="text-lg font-semibold">{title}</h3>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
