// Die Wörter des Dashboards auf Deutsch. `Messages` verlangt jeden Schlüssel von en.ts mit
// denselben Parametern; dieser Katalog wird erst geladen, wenn jemand Deutsch wählt.
import type { ComponentChildren } from 'preact';
import { formatCount as n, formatPercent, pluralIn, signedPercent } from '../locale.ts';
import type { Messages, Slot } from './en.ts';

const plural = pluralIn('de');
const scans = (count: number) => `${n(count)} ${plural(count, { one: 'Scan', other: 'Scans' })}`;

const de: Messages = {
  common: {
    cancel: 'Abbrechen',
    working: 'Wird ausgeführt …',
    loading: (what: string) => `Lade ${what} …`,
    copy: 'Kopieren',
    copied: 'Kopiert',
    selectToCopy: 'Zum Kopieren markieren',
    id: 'ID',
    input: 'Eingabe',
    notDownloaded: (why: string) => `Nicht heruntergeladen: ${why}`,
    signInFirst: 'Bitte zuerst anmelden.',
    serverAnswered: (status: number) => `Der Server antwortete mit ${status}.`,
    previous: 'Zurück',
    next: 'Weiter',
    show: 'Anzeigen',
    tag: 'Tag',
    seeThemInTheCodes: 'Zu den Codes',
    roles: { owner: 'Inhaber', admin: 'Admin', editor: 'Bearbeiter', viewer: 'Betrachter' },
  },

  shell: {
    pageTitle: (page: string) => `${page} · QR-Dashboard`,
    pageAnnouncement: (heading: string) => `Seite ${heading}`,
    skipLink: 'Zum Hauptinhalt springen',
    brand: 'QR-Codes',
    mainNavigation: 'Hauptnavigation',
    nav: {
      codes: 'Codes',
      analytics: 'Statistik',
      bulk: 'Massen-Upload',
      import: 'Import',
      domains: 'Domains',
      'connected-apps': 'Verbundene Apps',
      'audit-log': 'Protokoll',
      members: 'Mitglieder',
      profile: 'Profil',
    },
    signOut: 'Abmelden',
    language: 'Sprache',
    workspace: 'Arbeitsbereich',
    yourSession: 'Ihre Sitzung',
    notFound: 'Nicht gefunden',
    noSuchPage: (path: ComponentChildren, codes: Slot) => [
      'Das Dashboard hat keine Seite ',
      path,
      '. ',
      codes('Zu den Codes'),
      '.',
    ],
    pageNames: {
      codes: 'Codes',
      'new code': 'Neuer Code',
      code: 'Code',
      analytics: 'Statistik',
      bulk: 'Massen-Upload',
      import: 'Import',
      'connected apps': 'Verbundene Apps',
      domains: 'Domains',
      members: 'Mitglieder',
      profile: 'Profil',
      'audit log': 'Protokoll',
    },
    loadingPage: (page: string) => `die Seite „${page}“`,
    pageNotLoaded: (page: string) => `Die Seite „${page}“ konnte nicht geladen werden; neu laden versucht es erneut.`,
  },

  values: {
    devices: { mobile: 'Smartphone', tablet: 'Tablet', desktop: 'Desktop', tv: 'Fernseher', bot: 'Bot' },
    weekOf: (day: string) => `Woche ab ${day}`,
    noReferrer: 'Kein Referrer (direkt)',
    unknown: 'Unbekannt',
    defaultDestination: 'Standardziel',
  },

  account: {
    email: 'E-Mail',
    password: 'Passwort',
    yourName: 'Ihr Name',
    newPassword: 'Passwort (am besten ein langer Satz)',
    noWorkspace: 'Sie sind noch in keinem Arbeitsbereich Mitglied: Bitten Sie einen Inhaber, Sie hinzuzufügen.',
    withEmailFirst: 'Melden Sie sich zuerst mit Ihrer E-Mail an.',
  },

  signIn: {
    title: 'Anmelden',
    heading: 'QR-Code-Dashboard',
    enterEmailAndPassword: 'Geben Sie Ihre E-Mail und Ihr Passwort ein.',
    signingIn: 'Anmeldung läuft …',
    submit: 'Anmelden',
    forgotPassword: 'Passwort vergessen?',
    forDevelopers: 'oder, für Entwickler',
    or: 'oder',
    apiKey: 'API-Schlüssel',
    apiKeyHint: (code: Slot) => [
      'Erstellen Sie einen mit ',
      code('npm run cli -- keys create --account <name>'),
      ' oder ',
      code('POST /v1/api-keys'),
      '. Er wird nur in diesem Tab gespeichert und beim Schließen des Tabs vergessen.',
    ],
    pasteKeyFirst: 'Fügen Sie zuerst einen API-Schlüssel ein.',
    checking: 'Wird geprüft …',
    keyNotAccepted: (detail: string) =>
      `Dieser Schlüssel wurde nicht angenommen: ${detail} Prüfen Sie, ob Sie ihn vollständig eingefügt haben ` +
      '(API-Schlüssel beginnen mit qrk_) und ob er weder widerrufen noch abgelaufen ist.',
    keyCannotList: (detail: string) =>
      `Dieser Schlüssel darf keine Codes auflisten: ${detail} Das Dashboard braucht codes:read ` +
      '(und codes:write, analytics:read, um Codes zu ändern und Scans zu sehen).',
    sso: 'Mit SSO anmelden',
    ssoEnterEmail:
      'Geben Sie zuerst Ihre geschäftliche E-Mail ein: Sie bestimmt, welcher Identitätsanbieter Sie anmeldet.',
    ssoErrors: {
      not_configured:
        'Für die Domain dieser E-Mail ist keine Einmalanmeldung eingerichtet. Melden Sie sich mit Ihrem Passwort an.',
      provider_error:
        'Ihr Identitätsanbieter hat die Anmeldung nicht abgeschlossen. Versuchen Sie es erneut oder fragen Sie Ihre ' +
        'Administration.',
      bad_state: 'Diese Anmeldung ist abgelaufen oder wurde in einem anderen Browser begonnen. Beginnen Sie hier neu.',
      email_unverified: 'Ihr Identitätsanbieter bestätigt diese E-Mail-Adresse nicht als verifiziert.',
      domain_not_covered:
        'Die E-Mail, die Ihr Identitätsanbieter angibt, gehört zu keiner Domain dieser Einmalanmeldung.',
      account_exists:
        'Es gibt bereits einen Benutzer mit dieser E-Mail, der nicht Mitglied des Arbeitsbereichs ist: Melden Sie ' +
        'sich mit Ihrem Passwort an.',
      rate_limited: 'Zu viele Anmeldeversuche. Warten Sie eine Minute und versuchen Sie es erneut.',
      bad_email: 'Das ist keine E-Mail-Adresse.',
      unknown: 'Die Einmalanmeldung hat nicht funktioniert. Versuchen Sie es erneut.',
    },
  },

  secondFactor: {
    heading: 'Zwei-Faktor-Authentifizierung',
    codeLabel: 'Code aus Ihrer Authenticator-App oder ein Wiederherstellungscode',
    enterCode: 'Geben Sie den Code ein, den Ihre App anzeigt, oder einen Wiederherstellungscode.',
    codeNeeded: 'Geben Sie den Code Ihrer Authenticator-App ein.',
    checking: 'Wird geprüft …',
    verify: 'Bestätigen',
    startAgain: 'Mit dem Passwort neu beginnen',
    loading: 'die Zwei-Faktor-Authentifizierung',
    off:
      'Die Zwei-Faktor-Authentifizierung ist aus. Ist sie an, fragt die Anmeldung zusätzlich nach einem Code ' +
      'aus einer App auf Ihrem Smartphone.',
    setUp: 'Zwei-Faktor-Authentifizierung einrichten',
    scan: 'Scannen Sie diesen QR-Code mit Ihrer Authenticator-App oder geben Sie das Geheimnis dort ein.',
    qrCode: 'QR-Code des Geheimnisses für Ihre Authenticator-App',
    secret: 'Geheimnis',
    // After the copy button's visible word: „Kopieren Geheimnis“, as „Kopieren ID“.
    theSecret: 'Geheimnis',
    firstCode: 'Der 6-stellige Code, den Ihre App gerade anzeigt',
    turnOn: 'Einschalten',
    on: 'Die Zwei-Faktor-Authentifizierung ist an: Nach dem Passwort fragt die Anmeldung nach einem Code Ihrer App.',
    codesLeft: (count: number) => `Verbleibende Wiederherstellungscodes: ${n(count)}.`,
    passwordToChange: 'Ihr Passwort, um dies zu ändern',
    newCodes: 'Neue Wiederherstellungscodes',
    turnOff: 'Zwei-Faktor-Authentifizierung ausschalten',
    keepCodes:
      'Die Zwei-Faktor-Authentifizierung ist an. Bewahren Sie diese Wiederherstellungscodes sicher auf: ' +
      'Jeder meldet Sie einmal ohne Ihre App an, und sie werden nur jetzt angezeigt.',
    recoveryCodes: 'Wiederherstellungscodes',
    theRecoveryCodes: 'Wiederherstellungscodes',
    saved: 'Ich habe sie gespeichert',
  },

  passkeys: {
    signIn: 'Mit einem Passkey anmelden',
    unsupported: 'Dieser Browser kann keine Passkeys verwenden; melden Sie sich mit Ihrem Passwort an.',
    notAllowed:
      'Es wurde kein Passkey verwendet: Die Abfrage wurde geschlossen oder ist abgelaufen. Versuchen Sie es ' +
      'erneut oder melden Sie sich mit Ihrem Passwort an.',
    alreadyRegistered: 'Dieses Gerät hat bereits einen Passkey für Sie.',
    heading: 'Passkeys',
    intro:
      'Ein Passkey meldet Sie mit der Bildschirmsperre Ihres Geräts oder einem Sicherheitsschlüssel an, ohne ' +
      'Passwort und ohne Code: Er zählt als beide Faktoren.',
    loading: 'Ihre Passkeys',
    none: 'Sie haben noch keine Passkeys.',
    caption: 'Ihre Passkeys',
    columns: { name: 'Name', created: 'Hinzugefügt', lastUsed: 'Zuletzt verwendet', actions: 'Aktionen' },
    neverUsed: 'Nie',
    name: 'Name des neuen Passkeys (z. B. Laptop)',
    defaultName: 'Passkey',
    add: 'Passkey hinzufügen',
    adding: 'Warten auf Ihr Gerät …',
    added: 'Passkey hinzugefügt: Sie können sich jetzt damit anmelden.',
    newName: 'Neuer Name',
    rename: (hidden: Slot, name: string) => ['Umbenennen', hidden(` den Passkey ${name}`)],
    save: 'Speichern',
    delete: (hidden: Slot, name: string) => ['Löschen', hidden(` den Passkey ${name}`)],
    passwordToDelete: 'Ihr Passwort, um einen Passkey zu löschen',
  },

  setup: {
    title: 'Einrichtung',
    heading: 'Den QR-Code-Dienst einrichten',
    needsToken:
      'Diese Seite braucht das Token des Einrichtungslinks: ' +
      'Öffnen Sie den Link, den der Server in sein Log geschrieben hat.',
    intro: 'Sie werden der erste Inhaber. Der Link funktioniert einmal und eine Stunde lang.',
    workspaceName: 'Name des Arbeitsbereichs (optional)',
    settingUp: 'Wird eingerichtet …',
    submit: 'Inhaber anlegen und anmelden',
  },

  invite: {
    title: 'Einladung',
    join: (workspace: string) => `${workspace} beitreten`,
    needsToken: 'Diese Seite braucht das Token aus dem Link einer Einladung.',
    loading: 'die Einladung',
    invitedAs: (role: ComponentChildren, until: string) => [
      'Sie sind eingeladen als ',
      role,
      `. Die Einladung funktioniert einmal, bis ${until}.`,
    ],
    joinAs: (email: string) => `Sie treten als ${email} bei.`,
    joining: 'Beitritt läuft …',
    submit: 'Dem Arbeitsbereich beitreten',
  },

  resetPassword: {
    title: 'Passwort zurücksetzen',
    sending: 'Wird gesendet …',
    send: 'Link per E-Mail senden',
    sent:
      'Falls ein Konto diese E-Mail hat, ist ein Link zum Zurücksetzen des Passworts unterwegs; ' +
      'er funktioniert einmal, eine Stunde lang.',
    newPassword: 'Neues Passwort (am besten ein langer Satz)',
    saving: 'Wird gespeichert …',
    submit: 'Passwort setzen und anmelden',
  },

  verifyEmail: {
    title: 'E-Mail-Adresse bestätigen',
    working: 'Wird bestätigt …',
    done: (email: string) => `Vielen Dank: ${email} ist bestätigt.`,
    toProfile: 'Zu Ihrem Profil',
  },

  profile: {
    title: 'Profil',
    email: 'E-Mail-Adresse',
    verified: 'Bestätigt',
    notVerified: 'Nicht bestätigt',
    sendLink: 'Bestätigungslink senden',
    sendingLink: 'Wird gesendet …',
    linkSent: (email: string) => `Ein Link ist an ${email} unterwegs; er funktioniert einmal, 24 Stunden lang.`,
    forPeopleOnly:
      'Das Profil gibt es für Personen, die mit ihrer E-Mail angemeldet sind; ' +
      'ein API-Schlüssel handelt allein für den Arbeitsbereich.',
    password: 'Passwort',
    currentPassword: 'Aktuelles Passwort',
    newPassword: 'Neues Passwort (am besten ein langer Satz)',
    changed: 'Passwort geändert. Ihre anderen Sitzungen wurden abgemeldet.',
    changing: 'Wird geändert …',
    change: 'Passwort ändern',
    sessions: 'Ihre Sitzungen',
    loadingSessions: 'Ihre Sitzungen',
    sessionsCaption: 'Browser und Geräte, die als Sie angemeldet sind',
    columns: { browser: 'Browser', signedIn: 'Angemeldet', lastSeen: 'Zuletzt aktiv', actions: 'Aktionen' },
    unknownBrowser: 'Unbekannter Browser',
    thisSession: ' (diese Sitzung)',
    signOut: (hidden: Slot, current: boolean, id: string) => [
      'Abmelden',
      hidden(current ? ': diese Sitzung' : `: Sitzung ${id}`),
    ],
  },

  codes: {
    title: 'Codes',
    newCode: 'Neuer Code',
    search: 'Namen und Inhalte durchsuchen',
    searchExample: 'z. B. example.com/fruehling',
    allCodes: 'Alle Codes',
    tagOption: (tag: string, count: number) => `${tag} (${n(count)})`,
    loading: 'die Codes',
    noMatch: (tag: string, q: string) => {
      const tagged = tag ? ` mit dem Tag „${tag}“` : '';
      const containing = q ? `, dessen Name oder Inhalt „${q}“ enthält` : '';
      return `Kein Code${tagged}${containing}.`;
    },
    noCodesYet: (create: Slot, upload: Slot) => [
      'Noch keine Codes. ',
      create('Legen Sie Ihren ersten Code an'),
      ' oder ',
      upload('laden Sie eine CSV-Datei hoch'),
      ', um viele auf einmal anzulegen.',
    ],
    table: 'Tabelle der Codes',
    columns: {
      preview: 'Vorschau',
      name: 'Name',
      status: 'Status',
      scanUrl: 'Scan-URL',
      content: 'Inhalt',
      style: 'Stil',
      scans: 'Scans (30 Tage)',
      created: 'Erstellt',
      download: 'Download',
    },
    page: (page: number) => `Seite ${n(page)}`,
    imageOf: (title: string) => `QR-Code von ${title}`,
    scanUrlOf: (title: string) => `Scan-URL von ${title}`,
    staticCode: 'statischer Code',
    downloadsOf: (title: string) => `von ${title}`,
    statuses: {
      active: 'aktiv',
      paused: 'pausiert',
      archived: 'archiviert',
      expired: 'abgelaufen',
      'limit-reached': 'Limit erreicht',
    },
    filters: {
      listed: 'Aktiv und pausiert',
      active: 'Aktiv',
      paused: 'Pausiert',
      archived: 'Archiviert',
      all: 'Alle',
    },
  },

  analytics: {
    title: 'Statistik',
    titleOf: (code: string) => `Statistik von ${code}`,
    editCode: 'Code bearbeiten',
    loadingCode: 'den Code',
    loading: 'die Statistik',
    range: {
      form: 'Zeitraum',
      from: 'Von',
      to: 'Bis',
      granularity: 'Auflösung',
      granularities: { hour: 'Stunde', day: 'Tag', week: 'Woche', month: 'Monat' },
      timeZone: 'Zeitzone',
      presets: 'Voreinstellungen',
      lastDays: (days: number) => `Letzte ${n(days)} Tage`,
      chooseDates: 'Wählen Sie ein Start- und ein Enddatum.',
    },
    tags: {
      none: (editor: Slot) => [
        'Noch keine Tags. Vergeben Sie Tags an Codes in ihrem ',
        editor('Editor'),
        ' (z. B. „Frühlingskampagne“), um die Scans einer Kampagne hier für sich zu sehen.',
      ],
      codesTagged: 'Codes mit Tag',
      anyTag: 'Jeder Tag (alle Codes)',
    },
    noScans: (what: string, list: Slot) => [
      `Noch keine Scans von ${what} in diesem Zeitraum. ` +
        'Drucken Sie einen Code oder teilen Sie seine Scan-URL (kopieren Sie sie in der ',
      list('Code-Liste'),
      '); Scans erscheinen hier innerhalb einer Minute. Ein längerer Zeitraum findet vielleicht ältere.',
    ],
    yourCodes: 'Ihren Codes',
    codesTagged: (tag: string) => `den Codes mit dem Tag „${tag}“`,
    thisCode: 'diesem Code',
    stats: {
      scans: 'Scans',
      uniqueScans: 'Eindeutige Scans',
      codesScanned: 'Gescannte Codes',
      ofCodes: (active: number, total: number) => `${n(active)} von ${n(total)}`,
      change: 'Im Vergleich zum Zeitraum davor',
      changeBy: (percent: number, before: number) => `${signedPercent(percent)} (${n(before)} davor)`,
      noScansInEither: 'In keinem der beiden Zeiträume Scans',
      noneBefore: (count: number) => `+${scans(count)} (davor keine)`,
    },
    topCodes: 'Top-Codes',
    topCodesTable: 'Tabelle der Top-Codes',
    noCodeScanned: 'In diesem Zeitraum wurde kein Code gescannt.',
    columns: { code: 'Code', content: 'Inhalt', scans: 'Scans', period: 'Zeitraum', unique: 'Eindeutig' },
    whereAndWhen: 'Wo und wann gescannt wurde',
    noSuchCode: (id: string) => `Dieses Konto hat keinen Code ${id}.`,
    scannedAt: (url: ComponentChildren) => [' · gescannt unter ', url],
    staticCode: ' · ein statischer Code: Er hat keine Scan-URL, daher werden keine Scans gezählt.',
    rule: (condition: string) => `Regel ${condition}`,
    chart: {
      title: 'Scans im Zeitverlauf',
      scans: 'Scans',
      uniqueScans: 'Eindeutige Scans',
      data: 'Daten des Diagramms',
      notDrawn: 'Das Diagramm konnte nicht gezeichnet werden; seine Zahlen stehen in der Tabelle darunter.',
    },
    breakdowns: {
      country: 'Länder',
      region: 'Regionen',
      city: 'Städte',
      device: 'Geräte',
      os: 'Betriebssysteme',
      browser: 'Browser',
      referrer: 'Referrer',
      language: 'Sprachen',
      rule: 'Weiterleitungsregeln',
    },
    noScansInRange: 'Keine Scans in diesem Zeitraum.',
    attribution: 'IP-Geolokalisierung von DB-IP',
    weekdayHours: {
      title: (zone: string) => `Scans nach Wochentag und Stunde (${zone})`,
      csv: 'Scans nach Wochentag und Stunde',
      grid: 'Raster nach Wochentag und Stunde',
      table: (zone: string) => `Scans nach Wochentag und Tagesstunde, ${zone}`,
      cell: (day: string, hours: string, count: number) => `${day} ${hours}: ${scans(count)}`,
    },
    map: {
      title: 'Scans nach Land',
      notLoaded: 'Die Karte konnte nicht geladen werden; die Länder stehen unten.',
      loading: 'Lade die Karte …',
      label: (span: string) => `Weltkarte der Scans nach Land, ${span}`,
      span: (from: string, to: string, zone: string) => `${from} bis ${to}, ${zone}`,
      country: (name: string, count: number) => `${name}: ${scans(count)}`,
      scale: 'Farbskala',
      none: 'keine',
      unknownCountry: (count: number) => `Unbekanntes Land: ${scans(count)}`,
      notDrawn: 'in diesem Maßstab nicht gezeichnet:',
    },
    csv: {
      button: 'CSV herunterladen',
      label: (what: string) => `CSV herunterladen: ${what}`,
    },
  },

  bulk: {
    title: 'Massen-Upload',
    intro: (code: Slot, maxRows: number) => [
      'Ein Code pro Zeile, unter einer Kopfzeile mit den Spaltennamen: ',
      code('content'),
      ' und beliebige von ',
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
      ' (Namen getrennt durch ',
      code('|'),
      ', z. B. ',
      code('print|spring'),
      `; neue werden angelegt). Bis zu ${n(maxRows)} Zeilen; alle werden angelegt oder keine, ` +
        'wenn eine Zeile ungültig ist.',
    ],
    example: 'Beispiel',
    file: 'CSV-Datei (UTF-8)',
    submit: 'Hochladen und anlegen',
    uploading: (fraction: number) => `Lade hoch … ${formatPercent(fraction)}`,
    creating: 'Jede Zeile wird geprüft, die Codes werden angelegt …',
    chooseFile: 'Wählen Sie zuerst eine CSV-Datei.',
    emptyFile: (name: string) => `${name} ist leer.`,
    nothingCreated: 'Nichts wurde angelegt:',
    created: (count: number, batch: ComponentChildren) => [
      `${n(count)} ${plural(count, { one: 'Code', other: 'Codes' })} angelegt (Stapel `,
      batch,
      '). ',
    ],
    printRun: 'Druckauflage, das Bild jedes Codes in einem ZIP:',
    zipOfBatch: 'ZIP dieses Stapels',
    more: (count: number) => `und ${n(count)} weitere`,
    problems: {
      caption: (count: number) => `Probleme nach Zeile (${n(count)})`,
      row: 'Zeile',
      column: 'Spalte',
      problem: 'Problem',
      header: '1 (Kopfzeile)',
    },
  },

  domains: {
    title: 'Domains',
    intro:
      'Ihre eigenen Kurz-Domains: Sobald eine bestätigt ist, kann ein Code sie nutzen, ' +
      'und seine Scan-URL wird zu https://ihre-domain/slug.',
    domain: 'Domain',
    domainHint:
      'Eine Domain, die Sie verwalten, z. B. go.example.com. Richten Sie sie auf diesen Dienst; ' +
      'die Seite zeigt dann den TXT-Eintrag, der beweist, dass sie Ihnen gehört.',
    fallbackUrl: 'Ausweich-URL',
    fallbackHint:
      'Wohin die Wurzel der Domain und unbekannte Slugs führen. Optional: ohne sie antworten sie „nicht gefunden“.',
    noFallback: 'keine: nicht gefunden',
    notAdded: 'Nicht hinzugefügt:',
    adding: 'Wird hinzugefügt …',
    add: 'Domain hinzufügen',
    verified: (when: string) => `Bestätigt am ${when}`,
    notVerified: 'Noch nicht bestätigt',
    createRecord:
      'Legen Sie diesen DNS-TXT-Eintrag an und bestätigen Sie die Domain dann ' +
      '(DNS-Änderungen können eine Weile brauchen, bis sie sichtbar sind):',
    recordName: 'Name',
    recordValue: 'Wert',
    verify: 'Bestätigen',
    save: 'Speichern',
    notDone: 'Nicht erledigt:',
    remove: 'Entfernen',
    isVerified: (host: string) => `${host} ist bestätigt: Codes können sie jetzt nutzen.`,
    savedFallback: (host: string) => `Die Ausweich-URL von ${host} ist gespeichert.`,
    removed: (host: string) => `${host} entfernt.`,
    added: (host: string) => `${host} hinzugefügt. Legen Sie ihren TXT-Eintrag an und bestätigen Sie sie dann.`,
    notRemoved: 'Nicht entfernt:',
    loading: 'die Domains',
    none: 'Noch keine Domains: Codes nutzen die dieses Dienstes.',
    confirmTitle: (host: string) => `${host} entfernen?`,
    confirm: 'Domain entfernen',
    confirmText:
      'Nur eine Domain, die kein Code nutzt, kann entfernt werden. ' +
      'Slugs, die dort einmal genutzt wurden, bleiben gesperrt.',
  },

  apps: {
    title: 'Verbundene Apps',
    intro:
      'Apps, denen Sie auf der Zustimmungsseite erlaubt haben, für dieses Konto zu handeln. Widerrufen Sie eine, ' +
      'verliert sie sofort den Zugang; sie müsste Sie erneut fragen.',
    deleted: (clientId: string) => `${clientId} (gelöscht)`,
    revokedNotice: (app: string) => `${app} kann nicht mehr für dieses Konto handeln.`,
    forbidden:
      'Melden Sie sich mit einem Schlüssel mit dem Scope keys:manage an, um verbundene Apps zu sehen ' +
      'und zu widerrufen.',
    notRevoked: 'Nicht widerrufen:',
    loading: 'die verbundenen Apps',
    none: 'Keine App ist mit diesem Konto verbunden.',
    columns: {
      app: 'App',
      permissions: 'Berechtigungen',
      key: 'Erlaubt mit Schlüssel',
      connected: 'Verbunden',
      until: 'Bis',
    },
    notRecorded: 'nicht erfasst',
    revoke: 'Widerrufen',
    confirmTitle: (app: string) => `${app} widerrufen?`,
    confirm: 'Zugang widerrufen',
    confirmText:
      'Ihre Tokens funktionieren nicht mehr und sie kann sie nicht erneuern. ' +
      'Sie kann erneut um Zugang bitten, den Sie ablehnen können.',
  },

  audit: {
    title: 'Protokoll',
    intro: 'Jede Änderung an diesem Konto: wann, durch welchen Schlüssel, welche App oder die Kommandozeile, und was.',
    everyChange: 'alle Änderungen',
    objectTypes: {
      code: 'Änderungen an Codes',
      batch: 'Änderungen an Stapeln',
      tag: 'Änderungen an Tags',
      domain: 'Änderungen an Domains',
      webhook: 'Änderungen an Webhooks',
      api_key: 'Änderungen an API-Schlüsseln',
      oauth_client: 'Änderungen an OAuth-Clients',
      oauth_grant: 'Änderungen an OAuth-Freigaben',
    },
    forbidden: 'Melden Sie sich mit einem Schlüssel mit dem Scope audit:read an, um das Protokoll zu sehen.',
    loading: 'das Protokoll',
    none: 'Noch hat sich nichts geändert.',
    table: 'Tabelle des Protokolls',
    columns: { when: 'Wann', who: 'Wer', what: 'Was', object: 'Objekt', change: 'Änderung' },
    actors: { api_key: 'API-Schlüssel', oauth_client: 'OAuth-Client', cli: 'Kommandozeile', user: 'Person' },
    loadMore: 'Mehr laden',
  },

  members: {
    title: 'Mitglieder',
    forPeopleOnly:
      'Mitglieder gibt es für Personen, die mit ihrer E-Mail angemeldet sind; ' +
      'ein API-Schlüssel handelt allein für den Arbeitsbereich.',
    loading: 'die Mitglieder',
    caption: 'Mitglieder dieses Arbeitsbereichs',
    columns: { name: 'Name', email: 'E-Mail', role: 'Rolle', actions: 'Aktionen' },
    roleOf: (name: string) => `Rolle von ${name}`,
    remove: (name: string) => `${name} entfernen`,
    invite: 'Jemanden einladen',
    email: 'E-Mail (leer: ein Link für die Person, der Sie ihn geben)',
    role: 'Rolle',
    submit: 'Einladen',
    made: (link: string) => `Einladung erstellt. Ihr Link, nur jetzt gezeigt (er funktioniert einmal): ${link}`,
    copyLink: 'Link kopieren',
    pending: 'Offene Einladungen',
    anyone: 'Jede Person mit dem Link',
    pendingAs: (who: string, role: string, until: string) => `${who} als ${role}, bis ${until}`,
    theLink: 'den Link',
    revoke: (whom: string) => `Einladung für ${whom} widerrufen`,
  },
  sso: {
    heading: 'Einmalanmeldung (SSO)',
    intro:
      'Personen mit einer E-Mail dieser Domains melden sich über Ihren OpenID-Connect-Anbieter an; bei der ersten ' +
      'Anmeldung treten sie diesem Arbeitsbereich mit der Standardrolle bei. Der Anbieter ist ihr zweiter Faktor.',
    loading: 'die Einstellungen der Einmalanmeldung',
    issuer: 'Issuer-URL',
    clientId: 'Client-ID',
    clientSecret: 'Client-Secret',
    secretKept: 'Ein Secret ist gespeichert (wird nie angezeigt). Geben Sie ein neues ein, um es zu ersetzen.',
    domains: 'E-Mail-Domains (durch Kommas getrennt)',
    defaultRole: 'Rolle neuer Mitglieder',
    enabled: 'Aktiviert',
    redirectUri: (uri: string) => `Tragen Sie diese Redirect-URI bei Ihrem Anbieter ein: ${uri}`,
    save: 'Einmalanmeldung speichern',
    saved: 'Einmalanmeldung gespeichert.',
    remove: 'Einmalanmeldung entfernen',
    removed: 'Einmalanmeldung entfernt.',
  },
  api: {
    unreachable: 'Der Server ist nicht erreichbar. Prüfen Sie die Verbindung und versuchen Sie es erneut.',
    answered: (status: number, statusText: string) => `Der Server antwortete mit ${status} ${statusText}.`,
    noData: 'Der Server antwortete ohne Daten.',
    signedOut: (why: string) => `Abgemeldet: ${why}`,
    endedInAnotherTab: 'Abgemeldet: Die Sitzung wurde in einem anderen Tab beendet.',
  },

  editor: {
    newCode: 'Neuer Code',
    editTitle: (title: string) => `${title} bearbeiten`,
    codeTitle: (id: string) => `Code ${id}`,
    analytics: 'Statistik',
    saved: 'Gespeichert.',
    created: (title: string) => `„${title}“ angelegt.`,
    staticHint:
      'Statische Codes enthalten ihren Inhalt selbst; sie haben keine Scan-URL, also weder Weiterleitungsregeln ' +
      'noch gezählte Scans.',
    notSaved: 'Nicht gespeichert:',
    saving: 'Wird gespeichert …',
    saveChanges: 'Änderungen speichern',
    create: 'Code anlegen',
    loadingCode: 'den Code',
    notFound: 'Nicht gefunden',
    noSuchCode: (id: ComponentChildren, codes: Slot) => [
      'Dieses Konto hat keinen Code ',
      id,
      '. ',
      codes('Zurück zu den Codes'),
    ],
    invalidJson: (why: string) => `ist kein gültiges JSON: ${why}`,

    content: {
      legend: 'Inhalt',
      types: {
        url: 'URL (dynamisch)',
        text: 'Text',
        email: 'E-Mail',
        phone: 'Anruf',
        sms: 'SMS',
        wifi: 'WLAN',
        vcard: 'Kontakt (vCard)',
        geo: 'Ort',
      },
      name: 'Name',
      nameHint: 'Für Sie: Er unterscheidet diesen Code in der Liste und wird von der Suche gefunden. Optional.',
      namePlaceholder: 'Frühlingsplakat, Berlin',
      type: 'Typ',
      destination: 'Ziel-URL',
      destinationHint:
        'Wohin Scans führen, wenn keine Weiterleitungsregel greift; lässt sich auch nach dem Druck ändern.',
      slug: 'Slug',
      slugFixedHint:
        'Nach dem Anlegen fest: Gedruckte Codes tragen diese Scan-URL, ein neuer Slug würde sie unbrauchbar machen. ' +
        'Ändern Sie stattdessen das Ziel oder legen Sie einen weiteren Code an.',
      customSlug: 'Eigener Slug',
      customSlugHint:
        'Das Ende der Scan-URL, z. B. fruehlingsaktion; 3–64 Buchstaben, Ziffern, _ und -. Leer: ein zufälliger.',
      randomSlug: 'zufällig',
      text: 'Text',
      json: 'Inhalt (JSON)',
      textHint: 'Wird unverändert kodiert; statische Codes haben keine Scan-URL.',
      jsonHint: 'Die Felder dieses Typs wie in der API (siehe docs/codes.md, Static codes).',
      notes: 'Notizen',
      notesHint: 'Alles, was Sie sich merken möchten: wo er gedruckt ist, bis wann. Optional.',
    },

    domain: {
      label: 'Domain',
      own: 'die dieses Dienstes',
      movingHint:
        'Ein Umzug gibt dem Code eine neue Scan-URL und ein neues Bild; gedruckte Exemplare des alten ' +
        'funktionieren dann nicht mehr.',
      newHint: 'Die Domain der Scan-URL: die dieses Dienstes oder eine Ihrer bestätigten Domains.',
    },

    tags: {
      label: 'Tags',
      hint: 'Durch Kommas getrennt, bis zu 20. Ein neuer Name legt das Tag an. Die Codeliste lässt sich so filtern.',
      placeholder: 'druck, fruehling-2026',
    },

    lifecycle: {
      legend: 'Status und Ablauf',
      statuses: { active: 'Aktiv', paused: 'Pausiert', archived: 'Archiviert (nicht in der Liste)' },
      status: 'Status',
      statusHintUrl:
        'Scans eines pausierten oder archivierten Codes führen zum Pausen-Ziel oder auf eine Seite ' +
        '„Dieser Code ist pausiert“.',
      statusHintStatic: 'Archivierte Codes erscheinen nicht in der Liste.',
      pausedDestination: 'Ziel während der Pause',
      pausedDestinationHint: 'Optional: wohin Scans führen, solange der Code pausiert ist.',
      expiresAt: 'Läuft ab am',
      expiresAtHint:
        'Optional, in Ihrer Zeitzone: Ab dann führen Scans zum Ziel nach Ablauf ' +
        'oder auf eine Seite „Dieser Code ist abgelaufen“.',
      maxScans: 'Scan-Limit',
      maxScansHint: 'Optional: Nach so vielen Scans (Bots nicht mitgezählt) gilt der Code als abgelaufen.',
      noLimit: 'kein Limit',
      expiredDestination: 'Ziel nach Ablauf',
      expiredDestinationHint: 'Optional: wohin Scans nach Ablauf oder über dem Limit führen.',
      password: 'Passwort',
      newPassword: 'Neues Passwort',
      passwordHint: 'Optional: Wer scannt, muss dieses Passwort auf einer Entsperrseite eingeben, bevor es weitergeht.',
      newPasswordHint:
        'Dieser Code fragt beim Scannen nach einem Passwort. Geben Sie ein neues ein, um es zu ändern; ' +
        'leer bleibt es, wie es ist.',
      removePassword: 'Passwort entfernen',
    },

    design: {
      legend: 'Gestaltung',
      style: 'Stil',
      styles: { square: 'Quadrate', dots: 'Punkte', rounded: 'abgerundet', branded: 'Marke' },
      fgColor: 'Modulfarbe',
      bgColor: 'Hintergrund',
      gradient: 'Verlauf',
      gradients: { none: 'keiner', linear: 'linear', radial: 'radial' },
      from: 'Von',
      to: 'Bis',
      angle: 'Winkel',
      eyes: 'Augen',
      eyeStyles: { '': 'Wie der Stil', square: 'Quadrat', rounded: 'abgerundet', circle: 'Kreis' },
      eyeColor: 'Augenfarbe',
      sameAsModules: 'Wie die Module',
      frame: 'Rahmen',
      frames: { none: 'keiner', banner: 'Banner' },
      frameText: 'Handlungsaufruf',
      frameTextPlaceholder: 'Scan mich',
      margin: 'Ruhezone (Module)',
      errorCorrection: 'Fehlerkorrektur',
      automatic: 'Automatisch',
      logoUrl: 'Logo-URL',
      logoUrlHint: 'PNG, JPEG, GIF oder WebP; einmal vom Server abgerufen. Braucht Fehlerkorrektur Q oder H.',
      logoUrlTakenHint: 'Das hochgeladene Logo unten wird verwendet; entfernen Sie es, um eine URL anzugeben.',
      logoUpload: 'Logo hochladen',
      logoUploadHint:
        'PNG, JPEG, WebP oder SVG, bis 5 MB; bleibt in diesem Arbeitsbereich zur erneuten Verwendung. Ersetzt die URL.',
      logoAlt: 'Das hochgeladene Logo',
      removeLogo: 'Logo entfernen',
      wholeProblem: (problem: string) => `Die Gestaltung: ${problem}.`,
    },

    upload: {
      uploading: 'Wird hochgeladen …',
      tooLarge: 'ist größer als 5 MB, das Höchstmaß.',
      loadingImage: 'Bild wird geladen …',
      notShown: 'Das Bild konnte nicht angezeigt werden.',
      uploadedBefore: 'Oder ein früher hochgeladenes',
      chooseUploaded: 'Bild auswählen …',
    },

    routing: {
      legend: 'Weiterleitungsregeln',
      apply: 'Regeln anwenden (sonst führt jeder Scan zur Ziel-URL)',
      none: 'Keine Regeln: Jeder Scan führt zur Ziel-URL.',
      moveUp: (n: number) => `Regel ${n} nach oben`,
      moveDown: (n: number) => `Regel ${n} nach unten`,
      removeRule: (n: number) => `Regel ${n} entfernen`,
      remove: 'Entfernen',
    },

    rules: {
      dimensions: {
        country: 'Land',
        device: 'Gerät',
        language: 'Sprache',
        time: 'Zeit',
        ip: 'IP-Bereich',
        query: 'Query-Parameter',
        after: 'Ab',
        before: 'Bis',
      },
      kinds: { single: 'ein Ziel', split: 'A/B-Aufteilung nach Gewicht' },
      giveValue: (dimension: string, example: string) =>
        `Geben Sie den Wert für „${dimension}“ an, z. B. ${example}, oder entfernen Sie diese Bedingung.`,
      needsCondition: 'Fügen Sie eine Bedingung hinzu: Eine Regel ohne Bedingung würde jeden Scan erfassen.',
      needsDestination: 'Geben Sie das Ziel als http://- oder https://-URL an.',
      needsSplitDestinations: 'Geben Sie jedes Ziel der Aufteilung als http(s)-URL an.',
      needsWeights: 'Geben Sie jedes Gewicht als ganze Zahl von 1 bis 10000 an.',
      sendsTo: 'Regel schickt Scans an',
      when: 'Wenn',
      and: 'und',
      is: 'ist',
      removeCondition: (n: number) => `Bedingung ${n} entfernen`,
      remove: 'Entfernen',
      addCondition: 'Bedingung hinzufügen',
      addAndCondition: 'UND-Bedingung hinzufügen',
      sendTo: 'schicken an',
      splitBetween: 'Aufteilen auf (Gewichte sind Anteile, z. B. 50 und 50)',
      destination: (n: number) => `Ziel ${n}`,
      weight: 'Gewicht',
      removeDestination: (n: number) => `Ziel ${n} entfernen`,
      addDestination: 'Ziel hinzufügen',
      add: 'Regel hinzufügen',
    },

    appLinks: {
      legend: 'App-Links',
      hint:
        'Scans von einem iPhone oder Android-Telefon führen hierhin statt zum Ziel, wenn keine Weiterleitungsregel ' +
        'gegriffen hat. Ein Link mit eigenem Schema (myapp://…) schickt Scans zur Store-Seite, außer Sie lassen ' +
        'ihn direkt öffnen.',
      link: (os: string) => `${os}-App-Link`,
      store: (os: string) => `${os}-Store-Seite`,
      openDirectly: 'Link mit eigenem Schema direkt öffnen (eine Fehlerseite, wo die App nicht installiert ist)',
      utmLegend: 'UTM-Parameter',
      utmHint: 'Werden dem Ziel jedes Scans angehängt; ein Parameter, den das Ziel schon hat, behält seinen Wert.',
    },

    socialPreview: {
      legend: 'Vorschau in sozialen Netzen',
      hint: 'Was Chat-Apps und soziale Netzwerke zeigen, wenn die Scan-URL geteilt wird. Alle drei leer: keine.',
      title: 'Titel der Vorschau',
      description: 'Beschreibung der Vorschau',
      image: 'Bild der Vorschau (https)',
    },

    page: {
      legend: 'Gehostete Seite',
      hint:
        'Scans sehen diese Seite, statt zum Ziel zu gehen (eine passende Weiterleitungsregel leitet weiterhin um). ' +
        'Leer lassen, um weiterzuleiten.',
      template: 'Mit einer Vorlage beginnen',
      chooseKind: 'Art wählen …',
      kinds: { business_card: 'Visitenkarte', app_download: 'App-Download-Seite', links: 'Linkliste' },
      json: 'Seite (JSON)',
      jsonHint: 'kind business_card, app_download oder links, mit den zugehörigen Feldern; leer für keine.',
      photo: 'Foto',
      photoHint: 'Das Foto der Visitenkarte: PNG, JPEG, WebP oder SVG, bis 5 MB; höchstens 256 Pixel je Seite gezeigt.',
      photoAlt: 'Das Foto der Visitenkarte',
      removePhoto: 'Foto entfernen',
    },

    preview: {
      alt: 'Vorschau des QR-Codes',
      none: 'Noch keine Vorschau',
      cannotDraw: (why: string) => `Lässt sich nicht zeichnen: ${why}`,
      updating: 'Wird aktualisiert …',
      live: 'Live-Vorschau',
    },

    download: {
      scanUrl: 'Scan-URL:',
      scanUrlWhat: 'Scan-URL',
      formats: { png: 'PNG', svg: 'SVG (Vektor)', pdf: 'PDF (Vektor)' },
      format: 'Bildformat',
      size: 'Größe (Pixel; Punkt bei PDF)',
      preparing: 'Wird vorbereitet …',
      download: 'Bild herunterladen',
      notDownloaded: 'Nicht heruntergeladen:',
    },

    delete: {
      button: 'Code löschen',
      notDeleted: 'Nicht gelöscht:',
      confirmTitle: (title: string) => `„${title}“ löschen?`,
      confirm: 'Endgültig löschen',
      printedStop: (url: ComponentChildren) => [
        'Gedruckte Exemplare funktionieren nicht mehr: ',
        url,
        ' antwortet mit „nicht gefunden“, und die Adresse wird nie an einen anderen Code vergeben.',
      ],
      settingsDeleted: 'Der Code und seine Einstellungen werden gelöscht.',
      cannotUndo: 'Das lässt sich nicht rückgängig machen.',
      deleted: (title: string) => `„${title}“ gelöscht.`,
    },
  },

  imports: {
    title: 'Import',
    intro: (domains: Slot) => [
      'Bringen Sie Ihre Links von einem anderen Dienst mit: Jeder wird ein Code mit Ziel, Slug, Titel, Tags, ' +
        'Erstellungsdatum und bisherigen Klicks (getrennt von den hier gezählten Scans). Ein Link behält den Host ' +
        'seiner Kurz-URL, der eine Ihrer bestätigten ',
      domains('Domains'),
      ' sein muss. Prüfen Sie die Datei zuerst; ein erneuter Import legt nichts Neues an.',
    ],
    formats: {
      bitly_csv: 'Bitly (CSV-Export)',
      shlink_csv: 'Shlink (CSV-Export)',
      shlink_json: 'Shlink (REST-Liste, JSON)',
      yourls_csv: 'YOURLS (URL-Tabelle, CSV)',
      kutt_json: 'Kutt (API-Liste, JSON)',
    },
    statuses: {
      would_create: 'würde angelegt',
      created: 'angelegt',
      exists: 'schon vorhanden',
      failed: 'kann nicht angelegt werden',
    },
    dryRun: 'Probelauf, nichts geschrieben: ',
    summary: (total: number, done: string, existing: number, failed: number) =>
      `${n(total)} ${plural(total, { one: 'Link', other: 'Links' })}: ${done}, ${n(existing)} schon vorhanden, ` +
      `${n(failed)} ${plural(failed, { one: 'kann', other: 'können' })} nicht angelegt werden.`,
    wouldCreate: (count: number) => `${n(count)} ${plural(count, { one: 'würde', other: 'würden' })} angelegt`,
    created: (count: number) => `${n(count)} angelegt`,
    from: 'Export aus',
    file: 'Datei',
    check: 'Prüfen',
    submit: 'Importieren',
    reading: 'Jeder Link wird gelesen …',
    chooseFile: 'Wählen Sie zuerst die Exportdatei.',
    nothingImported: 'Nichts wurde importiert:',
    columns: { row: 'Zeile', link: 'Link', result: 'Ergebnis' },
    reason: (status: string, reason: string) => `${status}: ${reason}`,
  },

  oauth: {
    signingIn: 'Anmeldung',
    dashboard: 'QR-Code-Dashboard',
    failed: 'Anmeldung fehlgeschlagen.',
    backToSignIn: 'Zurück zur Anmeldeseite',
    finishing: 'OAuth-Anmeldung wird abgeschlossen …',
    form: {
      title: 'Mit OAuth anmelden',
      clientId: 'OAuth-Client-ID',
      badClientId: 'Geben Sie die Client-ID eines OAuth-Clients ein (sie beginnt mit client_).',
      hint: (code: Slot, redirectUri: string) => [
        'Ein öffentlicher Client (',
        code('"token_endpoint_auth_method": "none"'),
        '), registriert mit ',
        code('POST /v1/oauth-clients'),
        ' und der Redirect-URI ',
        code(redirectUri),
        '. Sie stimmen auf der Zustimmungsseite mit einem Schlüssel Ihres Kontos zu; das Dashboard hält danach ' +
          'nur ein Token, in diesem Tab.',
      ],
      opening: 'Zustimmungsseite wird geöffnet …',
      submit: 'Mit OAuth anmelden',
    },
    callback: {
      startAgain: 'Beginnen Sie erneut auf der Anmeldeseite.',
      nothingPending:
        'In diesem Tab wartet keine OAuth-Anmeldung auf ihren Abschluss (sie wurde anderswo begonnen ' +
        'oder ist schon abgeschlossen).',
      wrongState: 'Die Antwort gehört nicht zu der Anmeldung, die dieser Tab begonnen hat (ihr state weicht ab).',
      otherIssuer: (issuer: string) => `Die Antwort kommt von einem anderen OAuth-Server (${issuer}).`,
      denied: 'Die Anmeldung wurde auf der Zustimmungsseite abgelehnt.',
      refused: (why: string, redirectUri: string) =>
        `Der OAuth-Server hat die Anmeldung abgelehnt: ${why}. ` +
        `Prüfen Sie die Client-ID (ein öffentlicher Client mit der Redirect-URI ${redirectUri}).`,
      noCode: 'Die Antwort enthält keinen Autorisierungscode.',
      notExchanged: (why: string) => `Der Code ließ sich nicht gegen ein Token tauschen: ${why}`,
    },
    noServer:
      'Der OAuth-Server dieser Website hat nicht geantwortet. Versuchen Sie es erneut oder melden Sie sich ' +
      'mit einem API-Schlüssel an.',
    tokenEndpointAnswered: (status: number) => `Der Token-Endpunkt antwortete mit ${status}.`,
    signedOut: 'Abgemeldet.',
    notRenewed: (why: string) =>
      `Abgemeldet: Die OAuth-Anmeldung ließ sich nicht erneuern (${why}). Bitte melden Sie sich erneut an.`,
    noRefreshToken:
      'Abgemeldet: Das OAuth-Zugriffstoken ist abgelaufen, und dieser Client erhält kein Refresh-Token ' +
      '(registrieren Sie ihn mit dem Grant refresh_token, um angemeldet zu bleiben). Bitte melden Sie sich erneut an.',
  },
};

export default de;
