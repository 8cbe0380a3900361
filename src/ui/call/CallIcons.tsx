import { Icon } from '../Icon';

/** The call controls' icons. */
export function MicrophoneIcon({ off = false }: { off?: boolean }) {
  return (
    <Icon crossed={off}>
      <rect x="9" y="3" width="6" height="11" rx="3" />
      <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21" />
    </Icon>
  );
}

export function CameraIcon({ off = false }: { off?: boolean }) {
  return (
    <Icon crossed={off}>
      <rect x="3" y="6.5" width="12.5" height="11" rx="2" />
      <path d="M15.5 10.5 21 7.5v9l-5.5-3" />
    </Icon>
  );
}

export function ScreenIcon() {
  return (
    <Icon>
      <rect x="3" y="4" width="18" height="12.5" rx="1.5" />
      <path d="M8.5 20h7M12 16.5V20M12 13V7.5M9.5 10 12 7.5l2.5 2.5" />
    </Icon>
  );
}

export function HeadphonesIcon({ off = false }: { off?: boolean }) {
  return (
    <Icon crossed={off}>
      <path d="M4 15v-3a8 8 0 0 1 16 0v3" />
      <rect x="3.5" y="14" width="4" height="6" rx="1.5" />
      <rect x="16.5" y="14" width="4" height="6" rx="1.5" />
    </Icon>
  );
}

export function HangUpIcon() {
  return (
    <Icon>
      <path d="M3 14.5c5-4.5 13-4.5 18 0l-2.2 2.4-3.3-1.6v-2.5a10 10 0 0 0-7 0v2.5l-3.3 1.6L3 14.5Z" />
    </Icon>
  );
}

export function SettingsIcon() {
  return (
    <Icon>
      <path d="M4 7h10M18 7h2M4 17h4M12 17h8" />
      <circle cx="16" cy="7" r="2" />
      <circle cx="10" cy="17" r="2" />
    </Icon>
  );
}

/** Four corners pointing out (enlarge) or in (back to the grid). */
export function EnlargeIcon({ shrink = false }: { shrink?: boolean }) {
  return <Icon>{shrink ? <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" /> : <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />}</Icon>;
}

/** An "i" in a circle: more about the call. */
export function InfoIcon() {
  return (
    <Icon>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 11v5.5M12 7.6h.01" />
    </Icon>
  );
}

/** A large frame over a row of small ones. */
export function SpeakerViewIcon() {
  return (
    <Icon>
      <rect x="3.5" y="3.5" width="17" height="11" rx="1.5" />
      <rect x="3.5" y="17" width="4.5" height="3.5" rx="1" />
      <rect x="9.75" y="17" width="4.5" height="3.5" rx="1" />
      <rect x="16" y="17" width="4.5" height="3.5" rx="1" />
    </Icon>
  );
}
