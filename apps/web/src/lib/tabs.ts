import { BookOpen, ClipboardList, MessageSquareText, UserPlus, UserRound, type LucideIcon } from 'lucide-react';

export type TabId = 'chat' | 'jobs' | 'manuals' | 'add-user' | 'profile';

/** The header's tabs, in SPEC.md section 2's order; chat is the default. */
export const TABS: readonly { id: TabId; label: string; icon: LucideIcon }[] = [
  { id: 'chat', label: 'AI Assistant', icon: MessageSquareText },
  { id: 'jobs', label: 'My Jobs', icon: ClipboardList },
  { id: 'manuals', label: 'Manuals', icon: BookOpen },
  { id: 'add-user', label: 'Add User', icon: UserPlus },
  { id: 'profile', label: 'Profile', icon: UserRound },
];

export const DEFAULT_TAB: TabId = 'chat';
