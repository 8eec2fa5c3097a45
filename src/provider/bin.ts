#!/usr/bin/env node
/** The provider executable terraform starts (through a wrapper script that execs node on it). */
import { serveProvider } from './main';
import { networkcalcProvider } from './networkcalc';

serveProvider(networkcalcProvider());
