import { createApp } from "vue";
import App from "./App.vue";
import { createAppRouter } from "./router";
import { createSession, SESSION_KEY } from "./session/session";
import "./styles.css";

const session = createSession();
const app = createApp(App);
app.provide(SESSION_KEY, session);
app.use(createAppRouter(session));
app.mount("#app");
