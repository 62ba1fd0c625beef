// The dashboard's words in English: the source of every key. Another language is a file beside
// this one typed `Messages`, so TypeScript refuses it until it has every key with the same
// parameters (docs/dashboard.md, "Adding a language"). Texts with a link or code inside are
// functions of "slots": the page passes what wraps the words, the catalogue puts them in order.
import type { ComponentChildren } from 'preact';
import { formatCount as n, formatPercent, pluralIn, signedPercent } from '../locale.ts';

/** Wraps a catalogue's words in an element (a link, a <code>). */
export type Slot = (text: string) => ComponentChildren;

const plural = pluralIn('en');
const scans = (count: number) => `${n(count)} ${plural(count, { one: 'scan', other: 'scans' })}`;

const en = {
  common: {
    cancel: 'Cancel',
    working: 'Working…',
    loading: (what: string) => `Loading ${what}…`,
    copy: 'Copy',
    copied: 'Copied',
    selectToCopy: 'Select to copy',
    id: 'ID',
    input: 'input',
    notDownloaded: (why: string) => `Not downloaded: ${why}`,
    signInFirst: 'Sign in first.',
    serverAnswered: (status: number) => `The server answered ${status}.`,
    previous: 'Previous',
    next: 'Next',
    show: 'Show',
    tag: 'Tag',
    seeThemInTheCodes: 'See them in the codes',
    roles: { owner: 'owner', admin: 'admin', editor: 'editor', viewer: 'viewer' } as Record<string, string>,
  },

  shell: {
    pageTitle: (page: string) => `${page} · QR dashboard`,
    /** What the live region says after a navigation: the new page's heading. */
    pageAnnouncement: (heading: string) => `${heading} page`,
    skipLink: 'Skip to main content',
    brand: 'QR codes',
    mainNavigation: 'Main',
    nav: {
      codes: 'Codes',
      analytics: 'Analytics',
      bulk: 'Bulk upload',
      import: 'Import',
      domains: 'Domains',
      'connected-apps': 'Connected apps',
      'audit-log': 'Audit log',
      members: 'Members',
      profile: 'Profile',
    },
    signOut: 'Sign out',
    language: 'Language',
    workspace: 'Workspace',
    yourSession: 'your session',
    notFound: 'Not found',
    noSuchPage: (path: ComponentChildren, codes: Slot) => [
      'The dashboard has no page ',
      path,
      '. ',
      codes('Go to the codes'),
      '.',
    ],
    /** The name of a page in "Loading the … page" while its code loads. */
    pageNames: {
      codes: 'codes',
      'new code': 'new code',
      code: 'code',
      analytics: 'analytics',
      bulk: 'bulk',
      import: 'import',
      'connected apps': 'connected apps',
      domains: 'domains',
      members: 'members',
      profile: 'profile',
      'audit log': 'audit log',
    },
    loadingPage: (page: string) => `the ${page} page`,
    pageNotLoaded: (page: string) => `The ${page} page could not be loaded; reload to try again.`,
  },

  values: {
    devices: { mobile: 'Phone', tablet: 'Tablet', desktop: 'Desktop', tv: 'TV', bot: 'Bot' } as Record<string, string>,
    weekOf: (day: string) => `Week of ${day}`,
    noReferrer: 'No referrer (direct)',
    unknown: 'Unknown',
    defaultDestination: 'Default destination',
  },

  /** The fields a person fills in to join or sign in: setup, invitation, password reset, sign-in. */
  account: {
    email: 'Email',
    password: 'Password',
    yourName: 'Your name',
    newPassword: 'Password (a long phrase is best)',
    noWorkspace: 'You are not a member of any workspace yet: ask an owner to add you.',
    withEmailFirst: 'Sign in with your email first.',
  },

  signIn: {
    title: 'Sign in',
    heading: 'QR codes dashboard',
    enterEmailAndPassword: 'Enter your email and password.',
    signingIn: 'Signing in…',
    submit: 'Sign in',
    forgotPassword: 'Forgot your password?',
    forDevelopers: 'or, for developers',
    or: 'or',
    apiKey: 'API key',
    apiKeyHint: (code: Slot) => [
      'Make one with ',
      code('npm run cli -- keys create --account <name>'),
      ' or ',
      code('POST /v1/api-keys'),
      '. It is kept in this tab only and forgotten when the tab closes.',
    ],
    pasteKeyFirst: 'Paste an API key first.',
    checking: 'Checking…',
    /** `detail` is the server's own words. */
    keyNotAccepted: (detail: string) =>
      `This key was not accepted: ${detail} Check that you pasted all of it (API keys start with qrk_) ` +
      'and that it is not revoked or expired.',
    keyCannotList: (detail: string) =>
      `This key cannot list codes: ${detail} The dashboard needs codes:read ` +
      '(and codes:write, analytics:read to change codes and see scans).',
    sso: 'Sign in with SSO',
    ssoEnterEmail: 'Enter your work email first: it tells which identity provider signs you in.',
    /** Why a single sign-on came back without a session (the server's `sso_error`). */
    ssoErrors: {
      not_configured: 'Single sign-on is not set up for this email’s domain. Sign in with your password instead.',
      provider_error: 'Your identity provider did not complete the sign-in. Try again, or ask your administrator.',
      bad_state: 'This sign-in expired or was started in another browser. Start it again here.',
      email_unverified: 'Your identity provider does not confirm this email address as verified.',
      domain_not_covered: 'The email your identity provider gave is not of a domain this single sign-on covers.',
      account_exists: 'A user with this email exists but is not a member of the workspace: sign in with your password.',
      rate_limited: 'Too many sign-in attempts. Wait a minute and try again.',
      bad_email: 'That is not an email address.',
      unknown: 'Single sign-on did not work. Try again.',
    } as Record<string, string>,
  },

  secondFactor: {
    heading: 'Two-factor authentication',
    // The step of signing in.
    codeLabel: 'Code from your authenticator app, or a recovery code',
    enterCode: 'Enter the code your app shows, or a recovery code.',
    codeNeeded: 'Enter the code of your authenticator app.',
    checking: 'Checking…',
    verify: 'Verify',
    startAgain: 'Start again with your password',
    // The profile's section.
    loading: 'two-factor authentication',
    off: 'Two-factor authentication is off. With it on, signing in asks for a code of an app on your phone too.',
    setUp: 'Set up two-factor authentication',
    scan: 'Scan this QR code with your authenticator app, or type the secret into it.',
    qrCode: 'QR code of the secret for your authenticator app',
    secret: 'Secret',
    theSecret: 'the secret',
    firstCode: 'The 6-digit code your app shows now',
    turnOn: 'Turn on',
    on: 'Two-factor authentication is on: signing in asks for a code of your app after the password.',
    codesLeft: (count: number) => `Recovery codes left: ${n(count)}.`,
    passwordToChange: 'Your password, to change this',
    newCodes: 'New recovery codes',
    turnOff: 'Turn off two-factor authentication',
    keepCodes:
      'Two-factor authentication is on. Keep these recovery codes somewhere safe: each signs you in once ' +
      'without your app, and they are shown only now.',
    recoveryCodes: 'Recovery codes',
    theRecoveryCodes: 'the recovery codes',
    saved: 'I have saved them',
  },

  passkeys: {
    // The sign-in page.
    signIn: 'Sign in with a passkey',
    unsupported: 'This browser cannot use passkeys; sign in with your password.',
    notAllowed: 'No passkey was used: the prompt was closed or timed out. Try again, or sign in with your password.',
    alreadyRegistered: 'This device has a passkey for you already.',
    // The profile's section.
    heading: 'Passkeys',
    intro:
      'A passkey signs you in with your device’s screen lock or a security key, with no password and no code: ' +
      'it counts as both factors.',
    loading: 'your passkeys',
    none: 'You have no passkeys yet.',
    caption: 'Your passkeys',
    columns: { name: 'Name', created: 'Added', lastUsed: 'Last used', actions: 'Actions' },
    neverUsed: 'Never',
    name: 'Name of the new passkey (e.g. Laptop)',
    defaultName: 'Passkey',
    add: 'Add a passkey',
    adding: 'Waiting for your device…',
    added: 'Passkey added: you can sign in with it now.',
    newName: 'New name',
    /** The button's visible word, then (for screen readers) which passkey. */
    rename: (hidden: Slot, name: string) => ['Rename', hidden(` the passkey ${name}`)],
    save: 'Save',
    delete: (hidden: Slot, name: string) => ['Delete', hidden(` the passkey ${name}`)],
    passwordToDelete: 'Your password, to delete a passkey',
  },

  setup: {
    title: 'Set up',
    heading: 'Set up the QR code service',
    needsToken: "This page needs the setup link's token: open the link the server printed in its log.",
    intro: 'You become the first owner. The link works once and for an hour.',
    workspaceName: 'Workspace name (optional)',
    settingUp: 'Setting up…',
    submit: 'Create the owner and sign in',
  },

  invite: {
    title: 'Invitation',
    join: (workspace: string) => `Join ${workspace}`,
    needsToken: 'This page needs the token of an invitation’s link.',
    loading: 'the invitation',
    invitedAs: (role: ComponentChildren, until: string) => [
      'You are invited as ',
      role,
      `. The invitation works once, until ${until}.`,
    ],
    joinAs: (email: string) => `You join as ${email}.`,
    joining: 'Joining…',
    submit: 'Join the workspace',
  },

  resetPassword: {
    title: 'Reset your password',
    sending: 'Sending…',
    send: 'Mail me a link',
    sent: 'If a user has this email, a link to reset the password is on its way; it works once, for an hour.',
    newPassword: 'New password (a long phrase is best)',
    saving: 'Saving…',
    submit: 'Set the password and sign in',
  },

  profile: {
    title: 'Profile',
    forPeopleOnly: 'The profile is for people signed in with their email; an API key acts for the workspace alone.',
    password: 'Password',
    currentPassword: 'Current password',
    newPassword: 'New password (a long phrase is best)',
    changed: 'Password changed. Your other sessions were signed out.',
    changing: 'Changing…',
    change: 'Change the password',
    sessions: 'Your sessions',
    loadingSessions: 'your sessions',
    sessionsCaption: 'Browsers and devices signed in as you',
    columns: { browser: 'Browser', signedIn: 'Signed in', lastSeen: 'Last seen', actions: 'Actions' },
    unknownBrowser: 'Unknown browser',
    thisSession: ' (this session)',
    /** The button's visible words, then (for screen readers) which session. */
    signOut: (hidden: Slot, current: boolean, id: string) => [
      'Sign out',
      hidden(current ? ' this session' : ` the session ${id}`),
    ],
  },

  codes: {
    title: 'Codes',
    newCode: 'New code',
    search: 'Search names and content',
    searchExample: 'e.g. example.com/spring',
    allCodes: 'All codes',
    tagOption: (tag: string, count: number) => `${tag} (${n(count)})`,
    loading: 'codes',
    noMatch: (tag: string, q: string) => {
      const tagged = tag ? ` tagged “${tag}”` : '';
      const containing = q ? `${tag ? ' whose' : "'s"} name or content contains “${q}”` : '';
      return `No code${tagged}${containing}.`;
    },
    noCodesYet: (create: Slot, upload: Slot) => [
      'No codes yet. ',
      create('Create your first code'),
      ', or ',
      upload('upload a CSV'),
      ' to make many at once.',
    ],
    table: 'Codes table',
    columns: {
      preview: 'Preview',
      name: 'Name',
      status: 'Status',
      scanUrl: 'Scan URL',
      content: 'Content',
      style: 'Style',
      scans: 'Scans (30 days)',
      created: 'Created',
      download: 'Download',
    },
    page: (page: number) => `Page ${n(page)}`,
    imageOf: (title: string) => `QR code of ${title}`,
    scanUrlOf: (title: string) => `scan URL of ${title}`,
    staticCode: 'static code',
    downloadsOf: (title: string) => `of ${title}`,
    statuses: {
      active: 'active',
      paused: 'paused',
      archived: 'archived',
      expired: 'expired',
      'limit-reached': 'limit reached',
    } as Record<string, string>,
    filters: {
      listed: 'Active and paused',
      active: 'Active',
      paused: 'Paused',
      archived: 'Archived',
      all: 'All',
    },
  },

  analytics: {
    title: 'Analytics',
    titleOf: (code: string) => `Analytics of ${code}`,
    editCode: 'Edit the code',
    loadingCode: 'the code',
    loading: 'analytics',
    range: {
      form: 'Date range',
      from: 'From',
      to: 'To',
      granularity: 'Granularity',
      granularities: { hour: 'hour', day: 'day', week: 'week', month: 'month' } as Record<string, string>,
      timeZone: 'Time zone',
      presets: 'Presets',
      lastDays: (days: number) => `Last ${n(days)} days`,
      chooseDates: 'Choose a start and an end date.',
    },
    tags: {
      none: (editor: Slot) => [
        'No tags yet. Tag codes in their ',
        editor('editor'),
        ' (e.g. “spring campaign”) to see a campaign’s scans on their own here.',
      ],
      codesTagged: 'Codes tagged',
      anyTag: 'Any tag (all codes)',
    },
    noScans: (what: string, list: Slot) => [
      `No scans of ${what} in this range yet. Print a code or share its scan URL (copy it in the `,
      list('code list'),
      '); scans show here within a minute. A longer range may find older ones.',
    ],
    yourCodes: 'your codes',
    codesTagged: (tag: string) => `the codes tagged “${tag}”`,
    thisCode: 'this code',
    stats: {
      scans: 'Scans',
      uniqueScans: 'Unique scans',
      codesScanned: 'Codes scanned',
      ofCodes: (active: number, total: number) => `${n(active)} of ${n(total)}`,
      change: 'Against the period before',
      changeBy: (percent: number, before: number) => `${signedPercent(percent)} (${n(before)} before)`,
      noScansInEither: 'No scans in either',
      noneBefore: (count: number) => `+${scans(count)} (none before)`,
    },
    topCodes: 'Top codes',
    topCodesTable: 'Top codes table',
    noCodeScanned: 'No code was scanned in this range.',
    columns: { code: 'Code', content: 'Content', scans: 'Scans', period: 'Period', unique: 'Unique' },
    whereAndWhen: 'Where and when scans came',
    noSuchCode: (id: string) => `This account has no code ${id}.`,
    scannedAt: (url: ComponentChildren) => [' · scanned at ', url],
    staticCode: ' · a static code: it has no scan URL, so no scans are counted.',
    rule: (condition: string) => `Rule ${condition}`,
    chart: {
      title: 'Scans over time',
      scans: 'Scans',
      uniqueScans: 'Unique scans',
      data: 'Chart data',
      notDrawn: 'The chart could not be drawn; its numbers are in the table below.',
    },
    breakdowns: {
      country: 'Countries',
      region: 'Regions',
      city: 'Cities',
      device: 'Devices',
      os: 'Operating systems',
      browser: 'Browsers',
      referrer: 'Referrers',
      language: 'Languages',
      rule: 'Routing rules',
    } as Record<string, string>,
    noScansInRange: 'No scans in this range.',
    attribution: 'IP Geolocation by DB-IP',
    weekdayHours: {
      title: (zone: string) => `Scans by weekday and hour (${zone})`,
      csv: 'Scans by weekday and hour',
      grid: 'Weekday and hour grid',
      table: (zone: string) => `Scans by weekday and hour of the day, ${zone}`,
      cell: (day: string, hours: string, count: number) => `${day} ${hours}: ${scans(count)}`,
    },
    map: {
      title: 'Scans by country',
      notLoaded: 'The map could not be loaded; the countries are listed below.',
      loading: 'Loading the map…',
      label: (span: string) => `World map of scans by country, ${span}`,
      span: (from: string, to: string, zone: string) => `${from} to ${to}, ${zone}`,
      country: (name: string, count: number) => `${name}: ${scans(count)}`,
      scale: 'Colour scale',
      none: 'none',
      unknownCountry: (count: number) => `Unknown country: ${scans(count)}`,
      notDrawn: 'not drawn at this scale:',
    },
    csv: {
      button: 'Download CSV',
      /** The button's accessible name begins with its visible words (WCAG 2.5.3). */
      label: (what: string) => `Download CSV of ${what.toLowerCase()}`,
    },
  },

  bulk: {
    title: 'Bulk upload',
    intro: (code: Slot, maxRows: number) => [
      'One code per row, under a header naming the columns: ',
      code('content'),
      ' and any of ',
      code('type'),
      ', ',
      code('fg_color'),
      ', ',
      code('bg_color'),
      ', ',
      code('style'),
      ', ',
      code('error_correction'),
      ', ',
      code('logo_url'),
      ', ',
      code('tags'),
      ' (names separated by ',
      code('|'),
      ', e.g. ',
      code('print|spring'),
      `; new ones are created). Up to ${n(maxRows)} rows; all are created, or none when a row is invalid.`,
    ],
    example: 'Example',
    file: 'CSV file (UTF-8)',
    submit: 'Upload and create',
    uploading: (fraction: number) => `Uploading… ${formatPercent(fraction)}`,
    creating: 'Checking every row and creating the codes…',
    chooseFile: 'Choose a CSV file first.',
    emptyFile: (name: string) => `${name} is empty.`,
    nothingCreated: 'Nothing was created:',
    created: (count: number, batch: ComponentChildren) => [
      `Created ${n(count)} ${plural(count, { one: 'code', other: 'codes' })} (batch `,
      batch,
      '). ',
    ],
    printRun: 'Print run, every code’s image in one ZIP:',
    zipOfBatch: 'ZIP of this batch',
    more: (count: number) => `and ${n(count)} more`,
    problems: {
      caption: (count: number) => `Problems by row (${n(count)})`,
      row: 'Row',
      column: 'Column',
      problem: 'Problem',
      header: '1 (header)',
    },
  },

  domains: {
    title: 'Domains',
    intro:
      'Your own short domains: once verified, a code can use one, and its scan URL becomes https://your-domain/slug.',
    domain: 'Domain',
    domainHint:
      'A domain you control, e.g. go.example.com. Point it at this service; ' +
      'the page then shows the TXT record that proves it is yours.',
    fallbackUrl: 'Fallback URL',
    fallbackHint: 'Where the domain’s root and unknown slugs go. Optional: without it they answer “not found”.',
    noFallback: 'none: not found',
    notAdded: 'Not added:',
    adding: 'Adding…',
    add: 'Add domain',
    verified: (when: string) => `Verified ${when}`,
    notVerified: 'Not verified yet',
    createRecord: 'Create this DNS TXT record, then verify (DNS changes can take a while to appear):',
    recordName: 'Name',
    recordValue: 'Value',
    verify: 'Verify',
    save: 'Save',
    notDone: 'Not done:',
    remove: 'Remove',
    isVerified: (host: string) => `${host} is verified: codes can use it now.`,
    savedFallback: (host: string) => `Saved the fallback URL of ${host}.`,
    removed: (host: string) => `Removed ${host}.`,
    added: (host: string) => `Added ${host}. Create its TXT record, then verify it.`,
    notRemoved: 'Not removed:',
    loading: 'the domains',
    none: 'No domains yet: codes use this service’s own.',
    confirmTitle: (host: string) => `Remove ${host}?`,
    confirm: 'Remove domain',
    confirmText: 'Only a domain no code uses can be removed. Slugs once used on it stay retired there.',
  },

  apps: {
    title: 'Connected apps',
    intro:
      'Apps you let act for this account on the consent page. Revoke one and it loses access at once; ' +
      'it would have to ask you again.',
    deleted: (clientId: string) => `${clientId} (deleted)`,
    revokedNotice: (app: string) => `${app} can no longer act for this account.`,
    forbidden: 'Sign in with a key that has the keys:manage scope to see and revoke connected apps.',
    notRevoked: 'Not revoked:',
    loading: 'connected apps',
    none: 'No app is connected to this account.',
    columns: {
      app: 'App',
      permissions: 'Permissions',
      key: 'Approved with key',
      connected: 'Connected',
      until: 'Until',
    },
    notRecorded: 'not recorded',
    revoke: 'Revoke',
    confirmTitle: (app: string) => `Revoke ${app}?`,
    confirm: 'Revoke access',
    confirmText:
      'Its tokens stop working and it cannot refresh them. It can ask for access again, which you may refuse.',
  },

  audit: {
    title: 'Audit log',
    intro: 'Every change to this account: when, by which key, app or the command line, and what changed.',
    everyChange: 'every change',
    objectTypes: {
      code: 'code changes',
      batch: 'batch changes',
      tag: 'tag changes',
      domain: 'domain changes',
      webhook: 'webhook changes',
      api_key: 'api key changes',
      oauth_client: 'oauth client changes',
      oauth_grant: 'oauth grant changes',
    },
    forbidden: 'Sign in with a key that has the audit:read scope to see the audit log.',
    loading: 'the audit log',
    none: 'Nothing has changed yet.',
    table: 'Audit log table',
    columns: { when: 'When', who: 'Who', what: 'What', object: 'Object', change: 'Change' },
    actors: { api_key: 'api key', oauth_client: 'oauth client', cli: 'cli', user: 'user' } as Record<string, string>,
    loadMore: 'Load more',
  },

  members: {
    title: 'Members',
    forPeopleOnly: 'Members are for people signed in with their email; an API key acts for the workspace alone.',
    loading: 'the members',
    caption: 'Members of this workspace',
    columns: { name: 'Name', email: 'Email', role: 'Role', actions: 'Actions' },
    roleOf: (name: string) => `Role of ${name}`,
    remove: (name: string) => `Remove ${name}`,
    invite: 'Invite someone',
    email: 'Email (empty: a link for whoever you give it to)',
    role: 'Role',
    submit: 'Invite',
    made: (link: string) => `Invitation made. Its link, shown only now (it works once): ${link}`,
    copyLink: 'Copy the link',
    pending: 'Pending invitations',
    anyone: 'Anyone with the link',
    pendingAs: (who: string, role: string, until: string) => `${who} as ${role}, until ${until}`,
    theLink: 'the link',
    revoke: (whom: string) => `Revoke the invitation for ${whom}`,
  },
  sso: {
    heading: 'Single sign-on',
    intro:
      'People with an email of these domains sign in through your OpenID Connect provider; on their first ' +
      'sign-in they join this workspace with the default role. The provider is their second factor.',
    loading: 'the single sign-on settings',
    issuer: 'Issuer URL',
    clientId: 'Client ID',
    clientSecret: 'Client secret',
    secretKept: 'A secret is kept (never shown). Type a new one to replace it.',
    domains: 'Email domains (separated by commas)',
    defaultRole: 'Role of new members',
    enabled: 'Enabled',
    redirectUri: (uri: string) => `Register this redirect URI with your provider: ${uri}`,
    save: 'Save single sign-on',
    saved: 'Single sign-on saved.',
    remove: 'Remove single sign-on',
    removed: 'Single sign-on removed.',
  },
  /** What the dashboard says when a request to the server fails (graphql.ts). */
  api: {
    unreachable: 'The server could not be reached. Check the connection and try again.',
    answered: (status: number, statusText: string) => `The server answered ${status} ${statusText}.`,
    noData: 'The server answered without data.',
    signedOut: (why: string) => `Signed out: ${why}`,
    endedInAnotherTab: 'Signed out: the session ended in another tab.',
  },

  editor: {
    newCode: 'New code',
    editTitle: (title: string) => `Edit ${title}`,
    codeTitle: (id: string) => `Code ${id}`,
    analytics: 'Analytics',
    saved: 'Saved.',
    created: (title: string) => `Created “${title}”.`,
    staticHint: 'Static codes encode their content directly: they have no scan URL, so no routing and no scan counts.',
    notSaved: 'Not saved:',
    saving: 'Saving…',
    saveChanges: 'Save changes',
    create: 'Create code',
    loadingCode: 'the code',
    notFound: 'Not found',
    noSuchCode: (id: ComponentChildren, codes: Slot) => [
      'This account has no code ',
      id,
      '. ',
      codes('Back to the codes'),
    ],
    /** A field's problem found before sending (the server's come in its own words). */
    invalidJson: (why: string) => `is not valid JSON: ${why}`,

    content: {
      legend: 'Content',
      types: {
        url: 'URL (dynamic)',
        text: 'Text',
        email: 'Email',
        phone: 'Phone call',
        sms: 'Text message',
        wifi: 'Wi-Fi network',
        vcard: 'Contact (vCard)',
        geo: 'Location',
      } as Record<string, string>,
      name: 'Name',
      nameHint: 'For you: it tells this code apart in the list and is found by the search. Optional.',
      namePlaceholder: 'Spring poster, Berlin',
      type: 'Type',
      destination: 'Destination URL',
      destinationHint: 'Where scans go unless a routing rule matches; it can change after printing.',
      slug: 'Slug',
      slugFixedHint:
        'Fixed once created: printed codes carry this scan URL, so a new slug would break them. ' +
        'Change the destination instead, or create another code.',
      customSlug: 'Custom slug',
      customSlugHint:
        'The end of the scan URL, e.g. spring-sale; 3-64 letters, digits, _ and -. Left empty: a random one.',
      randomSlug: 'random',
      text: 'Text',
      json: 'Content (JSON)',
      textHint: 'Encoded as it is; static codes have no scan URL.',
      jsonHint: 'The fields of this type, as in the API (see docs/codes.md, Static codes).',
      notes: 'Notes',
      notesHint: 'Anything worth remembering: where it is printed, until when. Optional.',
    },

    domain: {
      label: 'Domain',
      own: 'this service’s own',
      movingHint: 'Moving the code gives it a new scan URL and image; printed copies of the old one stop working.',
      newHint: 'The scan URL’s domain: this service’s own, or one of your verified domains.',
    },

    tags: {
      label: 'Tags',
      hint: 'Comma-separated, up to 20. A new name creates that tag. Filter the list of codes by them.',
      placeholder: 'print, spring-2026',
    },

    lifecycle: {
      legend: 'Status and expiry',
      statuses: { active: 'Active', paused: 'Paused', archived: 'Archived (hidden from the list)' } as Record<
        string,
        string
      >,
      status: 'Status',
      statusHintUrl:
        'A paused or archived code’s scans go to the paused destination, or get a “this code is paused” page.',
      statusHintStatic: 'Archived codes are hidden from the list.',
      pausedDestination: 'Paused destination',
      pausedDestinationHint: 'Optional: where scans go while paused.',
      expiresAt: 'Expires at',
      expiresAtHint:
        'Optional, in your time zone: from then on scans go to the expired destination, ' +
        'or get a “this code has expired” page.',
      maxScans: 'Scan limit',
      maxScansHint: 'Optional: after this many scans (bots not counted) the code counts as expired.',
      noLimit: 'no limit',
      expiredDestination: 'Expired destination',
      expiredDestinationHint: 'Optional: where scans go once expired or over the limit.',
      password: 'Password',
      newPassword: 'New password',
      passwordHint: 'Optional: scans must enter this password on an unlock page before they are redirected.',
      newPasswordHint: 'This code asks scans for a password. Type a new one to change it; leave empty to keep it.',
      removePassword: 'Remove the password',
    },

    design: {
      legend: 'Design',
      style: 'Style',
      styles: { square: 'square', dots: 'dots', rounded: 'rounded', branded: 'branded' } as Record<string, string>,
      fgColor: 'Module color',
      bgColor: 'Background',
      gradient: 'Gradient',
      gradients: { none: 'none', linear: 'linear', radial: 'radial' } as Record<string, string>,
      from: 'From',
      to: 'To',
      angle: 'Angle',
      eyes: 'Eyes',
      eyeStyles: { '': 'Style default', square: 'square', rounded: 'rounded', circle: 'circle' } as Record<
        string,
        string
      >,
      eyeColor: 'Eye color',
      sameAsModules: 'Same as modules',
      frame: 'Frame',
      frames: { none: 'none', banner: 'banner' } as Record<string, string>,
      frameText: 'Call to action',
      frameTextPlaceholder: 'Scan me',
      margin: 'Quiet zone (modules)',
      errorCorrection: 'Error correction',
      automatic: 'Automatic',
      logoUrl: 'Logo URL',
      logoUrlHint: 'PNG, JPEG, GIF or WebP; fetched once by the server. Needs error correction Q or H.',
      logoUrlTakenHint: 'The uploaded logo below is used; remove it to give a URL instead.',
      logoUpload: 'Upload logo',
      logoUploadHint: 'PNG, JPEG, WebP or SVG, up to 5 MB; kept in this workspace to use again. Replaces the URL.',
      logoAlt: 'The uploaded logo',
      removeLogo: 'Remove the logo',
      wholeProblem: (problem: string) => `The design ${problem}.`,
    },

    /** An image uploaded from a field (the logo, a business card's photo). */
    upload: {
      uploading: 'Uploading…',
      tooLarge: 'is larger than 5 MB, the most accepted.',
      loadingImage: 'Loading the image…',
      notShown: 'The image could not be shown.',
      uploadedBefore: 'Or one uploaded before',
      chooseUploaded: 'Choose an image…',
    },

    routing: {
      legend: 'Routing rules',
      apply: 'Apply the rules (otherwise every scan goes to the destination URL)',
      none: 'No rules: every scan goes to the destination URL.',
      moveUp: (n: number) => `Move rule ${n} up`,
      moveDown: (n: number) => `Move rule ${n} down`,
      removeRule: (n: number) => `Remove rule ${n}`,
      remove: 'Remove',
    },

    rules: {
      dimensions: {
        country: 'Country',
        device: 'Device',
        language: 'Language',
        time: 'Time',
        ip: 'IP range',
        query: 'Query parameter',
        after: 'From',
        before: 'Until',
      } as Record<string, string>,
      kinds: { single: 'One destination', split: 'A/B split by weight' } as Record<string, string>,
      giveValue: (dimension: string, example: string) =>
        `Give the ${dimension.toLowerCase()} to match, e.g. ${example}, or remove that condition.`,
      needsCondition: 'Add a condition: a rule without one would catch every scan.',
      needsDestination: 'Give the destination as an http:// or https:// URL.',
      needsSplitDestinations: 'Give every split destination as an http(s) URL.',
      needsWeights: 'Give every weight as a whole number from 1 to 10000.',
      sendsTo: 'Rule sends scans to',
      when: 'When',
      and: 'and',
      is: 'is',
      removeCondition: (n: number) => `Remove condition ${n}`,
      remove: 'Remove',
      addCondition: 'Add a condition',
      addAndCondition: 'Add an AND condition',
      sendTo: 'send to',
      splitBetween: 'Split between (weights are shares, e.g. 50 and 50)',
      destination: (n: number) => `Destination ${n}`,
      weight: 'weight',
      removeDestination: (n: number) => `Remove destination ${n}`,
      addDestination: 'Add a destination',
      add: 'Add rule',
    },

    appLinks: {
      legend: 'App links',
      hint:
        'Scans from an iPhone or Android phone go here instead of the destination when no routing rule matched. A ' +
        'custom-scheme link (myapp://…) sends scans to the store page unless you choose to open it directly.',
      link: (os: string) => `${os} app link`,
      store: (os: string) => `${os} store page`,
      openDirectly: 'Open a custom-scheme link directly (an error page where the app is not installed)',
      utmLegend: 'UTM parameters',
      utmHint: 'Added to the destination of every scan; a parameter the destination already has keeps its value.',
    },

    socialPreview: {
      legend: 'Social preview',
      hint: 'What chat apps and social networks show when the scan URL is shared. Leave all three empty for none.',
      title: 'Preview title',
      description: 'Preview description',
      image: 'Preview image (https)',
    },

    page: {
      legend: 'Hosted page',
      hint:
        'Scans see this page instead of going to the destination (a matching routing rule still redirects). ' +
        'Leave it empty to redirect.',
      template: 'Start from a template',
      chooseKind: 'Choose a kind…',
      kinds: { business_card: 'Business card', app_download: 'App download page', links: 'List of links' } as Record<
        string,
        string
      >,
      json: 'Page (JSON)',
      jsonHint: 'kind business_card, app_download or links, with its fields; empty for none.',
      photo: 'Photo',
      photoHint: 'The business card’s photo: PNG, JPEG, WebP or SVG, up to 5 MB; shown at most 256 pixels a side.',
      photoAlt: 'The business card’s photo',
      removePhoto: 'Remove the photo',
    },

    preview: {
      alt: 'Preview of the QR code',
      none: 'No preview yet',
      cannotDraw: (why: string) => `Cannot draw this: ${why}`,
      updating: 'Updating…',
      live: 'Live preview',
    },

    download: {
      scanUrl: 'Scan URL:',
      scanUrlWhat: 'scan URL',
      formats: { png: 'PNG', svg: 'SVG (vector)', pdf: 'PDF (vector)' } as Record<string, string>,
      format: 'Image format',
      size: 'Size (pixels; points for PDF)',
      preparing: 'Preparing…',
      download: 'Download image',
      notDownloaded: 'Not downloaded:',
    },

    delete: {
      button: 'Delete code',
      notDeleted: 'Not deleted:',
      confirmTitle: (title: string) => `Delete “${title}”?`,
      confirm: 'Delete for good',
      printedStop: (url: ComponentChildren) => [
        'Printed copies stop working: ',
        url,
        ' will answer “not found”, and its address is never given to another code.',
      ],
      settingsDeleted: 'The code and its settings are deleted.',
      cannotUndo: 'This cannot be undone.',
      deleted: (title: string) => `Deleted “${title}”.`,
    },
  },

  imports: {
    title: 'Import',
    intro: (domains: Slot) => [
      'Bring your links from another service: each becomes a code with its destination, slug, title, tags, ' +
        'creation date and past clicks (kept apart from the scans counted here). A link keeps the host of its short ' +
        'URL, which must be one of your verified ',
      domains('domains'),
      '. Check the file first; importing it again creates nothing new.',
    ],
    formats: {
      bitly_csv: 'Bitly (CSV export)',
      shlink_csv: 'Shlink (CSV export)',
      shlink_json: 'Shlink (REST list, JSON)',
      yourls_csv: 'YOURLS (url table, CSV)',
      kutt_json: 'Kutt (API list, JSON)',
    } as Record<string, string>,
    statuses: {
      would_create: 'would be created',
      created: 'created',
      exists: 'already here',
      failed: 'cannot be created',
    } as Record<string, string>,
    dryRun: 'Dry run, nothing written: ',
    summary: (total: number, done: string, existing: number, failed: number) =>
      `${n(total)} ${plural(total, { one: 'link', other: 'links' })}: ${done}, ${n(existing)} already here, ` +
      `${n(failed)} cannot be created.`,
    wouldCreate: (count: number) => `${n(count)} would be created`,
    created: (count: number) => `${n(count)} created`,
    from: 'Export from',
    file: 'File',
    check: 'Check',
    submit: 'Import',
    reading: 'Reading every link…',
    chooseFile: 'Choose the export file first.',
    nothingImported: 'Nothing was imported:',
    columns: { row: 'Row', link: 'Link', result: 'Result' },
    reason: (status: string, reason: string) => `${status}: ${reason}`,
  },

  oauth: {
    signingIn: 'Signing in',
    dashboard: 'QR codes dashboard',
    failed: 'Sign-in failed.',
    backToSignIn: 'Back to the sign-in page',
    finishing: 'Finishing the OAuth sign-in…',
    form: {
      title: 'Sign in with OAuth',
      clientId: 'OAuth client id',
      badClientId: 'Enter the client id of an OAuth client (it starts with client_).',
      hint: (code: Slot, redirectUri: string) => [
        'A public client (',
        code('"token_endpoint_auth_method": "none"'),
        ') registered with ',
        code('POST /v1/oauth-clients'),
        ' and the redirect URI ',
        code(redirectUri),
        '. You approve on the consent page with a key of your account; the dashboard then holds only a token, ' +
          'in this tab.',
      ],
      opening: 'Opening the consent page…',
      submit: 'Sign in with OAuth',
    },
    /** Why a sign-in could not finish on the callback page; each ends by saying what to do. */
    callback: {
      startAgain: 'Start again from the sign-in page.',
      nothingPending:
        'This tab has no OAuth sign-in waiting to finish (it was started elsewhere, or already finished).',
      wrongState: 'The answer does not belong to the sign-in this tab started (its state differs).',
      otherIssuer: (issuer: string) => `The answer comes from another OAuth server (${issuer}).`,
      denied: 'The sign-in was denied on the consent page.',
      refused: (why: string, redirectUri: string) =>
        `The OAuth server refused the sign-in: ${why}. ` +
        `Check the client id (a public client whose redirect URI is ${redirectUri}).`,
      noCode: 'The answer carries no authorization code.',
      notExchanged: (why: string) => `The code could not be exchanged for a token: ${why}`,
    },
    noServer: 'The OAuth server of this site did not answer. Try again, or sign in with an API key.',
    tokenEndpointAnswered: (status: number) => `The token endpoint answered ${status}.`,
    signedOut: 'Signed out.',
    notRenewed: (why: string) => `Signed out: the OAuth sign-in could not be renewed (${why}). Sign in again.`,
    noRefreshToken:
      'Signed out: the OAuth access token expired, and this client gets no refresh token (register it with the ' +
      'refresh_token grant to stay signed in). Sign in again.',
  },
};

export type Messages = typeof en;
export default en;
