// One bundle for both pages: /watch (a link with the token in its fragment) and / (the Activity).

import { startActivity } from "./activity";
import { LivePage } from "./live";
import { LANGUAGE, TEXT } from "./words";

function main(): void {
  document.documentElement.lang = LANGUAGE;
  const root = document.getElementById("app");
  if (root === null) {
    return;
  }
  const message = document.getElementById("message");
  const say = (text: string): void => {
    if (message !== null) {
      message.textContent = text;
    }
  };
  const watch = (token: string): void => {
    say("");
    new LivePage(root, token).start();
  };
  const isActivity = location.pathname === "/" && new URLSearchParams(location.search).has("frame_id");
  if (isActivity) {
    document.body.classList.add("activity");
    void startActivity(document.body, say, watch);
    return;
  }
  const token = location.hash.slice(1);
  // The token leaves the address bar at once: it is not kept in history or shown on screen.
  history.replaceState(null, "", location.pathname + location.search);
  if (token === "") {
    say(TEXT.noToken);
    return;
  }
  watch(token);
}

main();
