// The Discord Activity: sign in through the Embedded App SDK, get a watch token for the
// channel's game from our server, then run the live page with it.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import type { IDiscordSDK } from "@discord/embedded-app-sdk";
import { element } from "./dom";
import { GAME_ENDED } from "./live";
import { postJson } from "./post";
import { LANGUAGE, TEXT } from "./words";

interface PageConfig {
  client_id: string;
  activity: boolean;
  sdk_mock?: boolean;
}

class Refusal extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

async function ask(path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await postJson<Record<string, unknown>>(path, body);
  if (!answer.ok) {
    throw new Refusal(answer.code);
  }
  return answer.value;
}

function stringField(answer: Record<string, unknown>, name: string): string {
  const value = answer[name];
  if (typeof value !== "string") {
    throw new Refusal("other");
  }
  return value;
}

/** The SDK, or its mock for tests: only when the page asks for it and the server allows it. */
function makeSdk(config: PageConfig): IDiscordSDK {
  const wantsMock = new URLSearchParams(location.search).get("sdk") === "mock";
  if (wantsMock && config.sdk_mock === true) {
    return new DiscordSDKMock(config.client_id, "1", "2", null);
  }
  return new DiscordSDK(config.client_id);
}

export async function startActivity(
  root: HTMLElement,
  say: (text: string) => void,
  watch: (token: string) => void,
): Promise<void> {
  say(TEXT.activityStarting);
  let sdk: IDiscordSDK | null = null;
  try {
    const config = (await (await fetch("/config.json")).json()) as PageConfig;
    sdk = makeSdk(config);
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: config.client_id,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    });
    const accessToken = stringField(await ask("/api/activity/token", { code }), "access_token");
    await sdk.commands.authenticate({ access_token: accessToken });
    const { participants } = await sdk.commands.getInstanceConnectedParticipants();
    showParticipants(root, participants);
    void sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", (update) => showParticipants(root, update.participants));
    const answer = await ask("/api/activity/game", {
      access_token: accessToken,
      instance_id: sdk.instanceId,
      channel_id: sdk.channelId,
    });
    offerInvite(root, sdk);
    const token = stringField(answer, "token");
    offerShareAtTheEnd(root, sdk, { token, access_token: accessToken }, say);
    watch(token);
  } catch (error) {
    const code = error instanceof Refusal ? error.code : "failed";
    if (code === "no_game" && sdk !== null) {
      say(TEXT.activityNoGame);
      offerInvite(root, sdk);
    } else if (code === "watching_off") {
      say(TEXT.activityWatchingOff);
    } else if (code === "not_in_instance") {
      say(TEXT.activityNotInInstance);
    } else {
      say(TEXT.activityFailed);
    }
  }
}

interface Participant {
  username: string;
  global_name?: string | null | undefined;
  nickname?: string | undefined;
}

function showParticipants(root: HTMLElement, participants: Participant[]): void {
  const here = root.querySelector(".participants");
  if (here !== null) {
    const names = participants.map((p) => p.nickname ?? p.global_name ?? p.username);
    here.textContent = names.length > 0 ? TEXT.here(names) : "";
  }
}

/** A button in the Activity's bar, added once. */
function barButton(root: HTMLElement, className: string, label: string, click: (button: HTMLButtonElement) => void): void {
  const bar = root.querySelector(".activity-bar");
  if (bar === null || bar.querySelector(`.${className}`) !== null) {
    return;
  }
  const button = element("button", className, label);
  button.type = "button";
  button.addEventListener("click", () => click(button));
  bar.append(button);
}

function offerInvite(root: HTMLElement, sdk: IDiscordSDK): void {
  barButton(root, "invite", TEXT.invite, () => {
    void sdk.commands.openInviteDialog().catch(() => undefined);
  });
}

interface ShareGrant {
  token: string;
  access_token: string;
}

/** Once the game has ended, a button that shares a picture of its final position: our server
 * draws it and uploads it to Discord, whose share dialog then offers it to the user's chats. */
function offerShareAtTheEnd(root: HTMLElement, sdk: IDiscordSDK, grant: ShareGrant, say: (text: string) => void): void {
  root.addEventListener(GAME_ENDED, () => {
    barButton(root, "share", TEXT.share, (button) => {
      button.disabled = true;
      void share(sdk, grant, say).finally(() => {
        button.disabled = false;
      });
    });
  });
}

async function share(sdk: IDiscordSDK, grant: ShareGrant, say: (text: string) => void): Promise<void> {
  say("");
  try {
    const answer = await ask("/api/activity/share", { ...grant, lang: LANGUAGE });
    await sdk.commands.openShareMomentDialog({ mediaUrl: stringField(answer, "url") });
  } catch (error) {
    const code = error instanceof Refusal ? error.code : "failed";
    if (code === "bad_token" || code === "expired_token") {
      say(TEXT.shareExpired);
    } else if (code === "game_not_over") {
      say(TEXT.shareNotOver);
    } else if (code === "watching_off") {
      say(TEXT.activityWatchingOff);
    } else {
      say(TEXT.shareFailed);
    }
  }
}
