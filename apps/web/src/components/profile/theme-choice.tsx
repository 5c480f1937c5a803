import { Monitor, Moon, Sun } from 'lucide-react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { setThemeChoice, THEME_CHOICES, useTheme, type ThemeChoice } from '@/lib/theme';
import { cn } from '@/lib/utils';

const OPTIONS: Record<ThemeChoice, { label: string; icon: typeof Sun }> = {
  light: { label: 'Light', icon: Sun },
  dark: { label: 'Dark', icon: Moon },
  system: { label: 'System', icon: Monitor },
};

/** Profile's choice of palette: light (best in sunlight), dark, or the system's setting. */
export function ThemeChoiceCard() {
  const { choice } = useTheme();
  return (
    <Card>
      <CardHeader>
        <CardTitle id="theme-choice-title">Appearance</CardTitle>
        <CardDescription>Light reads best in sunlight; System follows this device.</CardDescription>
      </CardHeader>
      <CardContent>
        <div role="radiogroup" aria-labelledby="theme-choice-title" className="grid grid-cols-3 gap-2">
          {THEME_CHOICES.map((value) => {
            const { label, icon: Icon } = OPTIONS[value];
            const checked = value === choice;
            return (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={checked}
                onClick={() => setThemeChoice(value)}
                className={cn(
                  'flex min-h-12 items-center justify-center gap-2 rounded-md border-2 px-2 text-base font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring',
                  checked
                    ? 'border-primary bg-primary text-primary-foreground'
                    : 'border-input bg-background hover:bg-accent',
                )}
              >
                <Icon className="size-5" aria-hidden="true" />
                {label}
              </button>
            );
          })}
        </div>
      </CardContent>
    </Card>
  );
}
